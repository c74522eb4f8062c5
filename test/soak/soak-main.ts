/**
 * `npm run soak -- --schedules N [--seed S] …` (docs/testing.md): runs N schedules (seeds S, S+1, …; S from
 * the clock when not given), prints one line each, then each distinct finding once, with its seed and its
 * shrunk step list. `--seed S` alone replays that one schedule and prints its steps; `--schedule JSON` one printed so.
 */

import { reportOf, runSchedule, type ScheduleResult } from './run-schedule.js';
import { generateSchedule, LEAVE_OUT, type LeaveOut, type Schedule, without } from './schedule.js';
import { shrink } from './shrink.js';
import { canMountTmpfs } from './world.js';

interface SoakArgs {
  /** One schedule to run as it is (`--schedule JSON`), instead of one made from a seed. */
  given?: Schedule;
  without: Set<LeaveOut>;
  seeds: number[];
  maxSteps: number;
  jobs: number;
  shrink: boolean;
  budget: number;
  verbose: boolean;
}

const USAGE =
  'usage: npm run soak -- --schedules N [--seed S] [--steps M] [--jobs J] [--without KIND,…] [--no-shrink] [--budget R]\n' +
  '       npm run soak -- --seed S | --schedule JSON   (one schedule, every step printed)';

const DEFAULT_STEPS = 6;

function parse(argv: readonly string[]): SoakArgs | string {
  const values = new Map<string, number>();
  const leftOut = new Set<LeaveOut>();
  let shrinking = true;
  let given: Schedule | undefined;
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i] as string;
    if (name === '--no-shrink') {
      shrinking = false;
      continue;
    }
    if (name === '--schedule') {
      try {
        given = JSON.parse(argv[++i] ?? '') as Schedule;
      } catch {
        return '--schedule: expected the JSON of a schedule, as a failure prints it';
      }
      continue;
    }
    if (name === '--without') {
      for (const kind of (argv[++i] ?? '').split(',')) {
        if (!(LEAVE_OUT as readonly string[]).includes(kind))
          return `--without: expected a list of ${LEAVE_OUT.join(', ')}, got "${kind}"`;
        leftOut.add(kind as LeaveOut);
      }
      continue;
    }
    const value = Number(argv[++i]);
    if (!['--schedules', '--seed', '--steps', '--jobs', '--budget'].includes(name))
      return `unknown option ${name}: ${USAGE}`;
    if (!Number.isSafeInteger(value) || value < 0)
      return `${name}: expected a whole number, got "${argv[i] ?? ''}"`;
    values.set(name, value);
  }
  const count = values.get('--schedules');
  const seed = values.get('--seed');
  if (count === undefined && seed === undefined && !given) return USAGE;
  const first = seed ?? Date.now() % 1_000_000_000;
  return {
    without: leftOut,
    seeds: Array.from({ length: count ?? 1 }, (_, i) => first + i),
    maxSteps: values.get('--steps') ?? DEFAULT_STEPS,
    jobs: Math.max(1, values.get('--jobs') ?? 2),
    shrink: shrinking,
    budget: values.get('--budget') ?? 24,
    verbose: count === undefined,
    ...(given ? { given } : {}),
  };
}

/** Runs `tasks` with at most `jobs` at once, in order of start. */
async function pool<T, R>(items: readonly T[], jobs: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

/** The soak command; returns the exit status (1 when any schedule failed). */
export async function soakMain(argv: readonly string[], print: (line: string) => void): Promise<number> {
  const args = parse(argv);
  if (typeof args === 'string') {
    print(args);
    return 2;
  }
  // an in-process run that leaves a rejection nobody handles is a bug of mdget's, not an end of the soak
  const unhandled: string[] = [];
  process.on('unhandledRejection', (error) => {
    unhandled.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
  });
  if (!canMountTmpfs()) print('soak: cannot mount a tmpfs here (not root?): the full-disk steps are skipped');
  const options = { maxSteps: args.maxSteps };
  // what a replay needs besides the seed
  const replayFlags = [
    args.maxSteps === DEFAULT_STEPS ? '' : ` --steps ${args.maxSteps}`,
    args.without.size ? ` --without ${[...args.without].join(',')}` : '',
  ].join('');
  const started = Date.now();
  const schedules = args.given
    ? [args.given]
    : args.seeds.map((seed) => without(generateSchedule(seed, options), args.without));
  const results = await pool(schedules, args.jobs, async (schedule) => {
    const { seed } = schedule;
    const result = await runSchedule(schedule);
    const first = result.findings[0];
    print(
      first
        ? `seed ${seed}: FAIL ${first.signature}${result.findings.length > 1 ? ` (+${result.findings.length - 1})` : ''}`
        : `seed ${seed}: ok (${result.schedule.steps.length} steps)`,
    );
    if (args.verbose) print(reportOf(result, replayFlags));
    return result;
  });
  const seconds = (Date.now() - started) / 1000;
  const failed = results.filter((r) => r.findings.length > 0);
  // a schedule is classed by its first finding: what follows it is often its consequence
  const classes = new Map<string, ScheduleResult[]>();
  for (const result of failed) {
    const signature = result.findings[0]?.signature ?? '';
    classes.set(signature, [...(classes.get(signature) ?? []), result]);
  }
  print(
    `\nsoak: ${results.length} schedules in ${seconds.toFixed(1)} s (${(seconds / results.length).toFixed(1)} s each, ${args.jobs} at once): ${results.length - failed.length} passed, ${failed.length} failed, ${classes.size} distinct findings`,
  );
  for (const error of unhandled)
    print(`\nsoak: an in-process mdget run left an unhandled rejection:\n${error}`);
  if (args.verbose) return failed.length > 0 || unhandled.length > 0 ? 1 : 0;
  const replay = (schedule: Schedule) => runSchedule(schedule);
  const shrunk = await pool([...classes], args.jobs, async ([signature, shown]) => {
    const smallest = shown.reduce((a, b) => (b.schedule.steps.length < a.schedule.steps.length ? b : a));
    const done = args.shrink
      ? await shrink(smallest, signature, replay, args.budget)
      : { result: smallest, replays: 0 };
    return { signature, seeds: shown.map((r) => r.schedule.seed), ...done };
  });
  for (const { signature, seeds, result, replays } of shrunk) {
    print(
      `\n■ ${signature}\n  in ${seeds.length} schedule(s): seeds ${seeds.slice(0, 8).join(', ')}${seeds.length > 8 ? ', …' : ''}`,
    );
    print(`  smallest (${result.schedule.steps.length} steps, after ${replays} replays):`);
    print(reportOf(result, replayFlags).replace(/^/gm, '  '));
    print(`  replay the smallest: npm run soak -- --schedule '${JSON.stringify(result.schedule)}'`);
  }
  return failed.length > 0 || unhandled.length > 0 ? 1 : 0;
}
