import { normalize } from 'node:path';
import { usageError } from '../model/errors.js';
import { checkRewrites } from '../pipeline/row-rewrite.js';
import type { BatchOptions } from '../run/run-types.js';
import { describePlan, type PlannedRequest } from './planned-request.js';
import {
  checkOutputPath,
  expandTemplate,
  isTemplate,
  placeholdersOf,
  type TemplateVars,
} from './templates.js';

/**
 * The outputs of a run and the requests of each, after every check a run makes before any request that
 * needs no file system (MDGET_USAGE, exit 2): --columns, --utc and --tz against the format, then the
 * outputs (groupByOutput). runBatch starts with it and --dry-run calls it too, so a dry run refuses what
 * the run would; what the file system says (a file exists, a directory stands in the way) is the run's.
 */
export function plannedOutputs(
  plans: readonly PlannedRequest[],
  options: Pick<BatchOptions, 'output' | 'format' | 'gzip' | 'columns' | 'timeZone'>,
): Map<string, PlannedRequest[]> {
  checkRewrites(plans, options);
  return groupByOutput(plans, options);
}

/**
 * The output of each request and the requests that share one (pure). Checked before any request (issue
 * 10): the path itself, a placeholder with no value for a request (`{end}` without --end), and two
 * requests a template tells apart landing in one file (`{symbol}` of `ES*1` and `ES_1`, or `..`).
 */
export function groupByOutput(
  plans: readonly PlannedRequest[],
  options: Pick<BatchOptions, 'output' | 'format' | 'gzip'>,
): Map<string, PlannedRequest[]> {
  const { output } = options;
  checkOutputPath(output);
  const groups = new Map<string, PlannedRequest[]>();
  if (!isTemplate(output)) {
    groups.set(output, [...plans]);
    return groups;
  }
  const used = placeholdersOf(output);
  const base = options.format === 'raw' ? (plans[0]?.jsonBody ? 'json' : 'csv') : options.format;
  // --gzip names the file: {ext} is csv.gz, unless the template writes .gz itself
  const ext = options.gzip && !/\.gz$/i.test(output) ? `${base}.gz` : base;
  const owners = new Map<string, { key: string; plan: PlannedRequest }>();
  for (const plan of plans) {
    const vars: TemplateVars = { symbol: plan.symbol, command: plan.command, ext };
    if (plan.start) Object.assign(vars, { date: plan.start, start: plan.start });
    if (plan.end) vars.end = plan.end;
    for (const key of used) {
      if (vars[key] === undefined)
        throw usageError(`-o ${output}: {${key}} has no value for ${describePlan(plan)}: ${MISSING[key]}`);
    }
    const target = normalize(expandTemplate(output, vars));
    const key = used.map((name) => vars[name]).join('\u0000');
    const owner = owners.get(target);
    if (owner && owner.key !== key) {
      throw usageError(
        `-o ${output}: ${describePlan(owner.plan)} and ${describePlan(plan)} would both write ${target}; use placeholders that tell them apart`,
      );
    }
    owners.set(target, { key, plan });
    const list = groups.get(target) ?? [];
    list.push(plan);
    groups.set(target, list);
  }
  return groups;
}

/** What to give for a placeholder that has no value. */
const MISSING: Record<string, string> = {
  date: 'give --start (or --date)',
  start: 'give --start',
  end: 'give --end',
};
