import { normalize } from 'node:path';
import { usageError } from '../model/errors.js';
import { formOfName, type OutputFormat } from '../model/formats.js';
import type { NameOf } from './names.js';
import { describePlan, type OutputRef, type PlannedRequest, type RequestPlan } from './planned-request.js';
import { expandTemplate, isTemplate, placeholdersOf, type TemplateVars } from './templates.js';

/** Where a download writes: the run's stream, one file, or a template that names a file per request. */
export type OutputTarget =
  | { kind: 'stream'; gzip: boolean }
  | { kind: 'file'; path: string; gzip: boolean }
  | { kind: 'template'; template: string; gzip: boolean };

/**
 * The target of an `output` option (absent: the run's stream). Compression is decided here: asked for,
 * or named by a `.gz` file (or template) name.
 */
export function outputTargetOf(output: string | undefined, gzip: boolean): OutputTarget {
  if (output === undefined) return { kind: 'stream', gzip };
  const compressed = gzip || formOfName(output).gzip;
  return isTemplate(output)
    ? { kind: 'template', template: output, gzip: compressed }
    : { kind: 'file', path: output, gzip: compressed };
}

/**
 * Each request with its output (pure). A template is checked before any request: a placeholder with no
 * value for a request (`{end}` without an end), and two requests it tells apart landing in one file
 * (`{symbol}` of `ES*1` and `ES_1`, or `..`).
 */
export function assignOutputs(
  plans: readonly RequestPlan[],
  target: OutputTarget,
  format: OutputFormat,
  names: NameOf,
): PlannedRequest[] {
  if (target.kind === 'stream') return plans.map((plan) => ({ ...plan, output: { kind: 'stream' } }));
  if (target.kind === 'file') {
    const output: OutputRef = { kind: 'file', path: target.path };
    return plans.map((plan) => ({ ...plan, output }));
  }
  const { template } = target;
  const used = placeholdersOf(template);
  const base = format === 'raw' ? (plans[0]?.jsonBody ? 'json' : 'csv') : format;
  // compression names the file: {ext} is csv.gz, unless the template writes .gz itself
  const ext = target.gzip && !formOfName(template).gzip ? `${base}.gz` : base;
  const owners = new Map<string, { key: string; plan: RequestPlan }>();
  return plans.map((plan) => {
    const vars: TemplateVars = { symbol: plan.symbol, command: plan.command, ext };
    if (plan.start) Object.assign(vars, { date: plan.start, start: plan.start });
    if (plan.end) vars.end = plan.end;
    for (const key of used) {
      if (vars[key] === undefined)
        throw usageError(
          `${names('output')} ${template}: {${key}} has no value for ${describePlan(plan)}: give ${names(MISSING[key] ?? 'start')}`,
          'output',
        );
    }
    const path = normalize(expandTemplate(template, vars));
    const key = used.map((name) => vars[name]).join('\u0000');
    const owner = owners.get(path);
    if (owner && owner.key !== key) {
      throw usageError(
        `${names('output')} ${template}: ${describePlan(owner.plan)} and ${describePlan(plan)} would both write ${path}; use placeholders that tell them apart`,
        'output',
      );
    }
    owners.set(path, { key, plan });
    return { ...plan, output: { kind: 'file', path } };
  });
}

/** The option that gives a placeholder its value. */
const MISSING: Partial<Record<keyof TemplateVars, string>> = { date: 'start', start: 'start', end: 'end' };

/** The key that groups a request's output with the others writing to it. */
export const outputKey = (output: OutputRef): string => (output.kind === 'stream' ? '' : output.path);
