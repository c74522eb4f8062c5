/** Runs one schedule from its first step to the final check, in a world of its own. */
import { finalCheck } from './oracle.js';
import { describeStep, type Schedule } from './schedule.js';
import { runStep } from './steps.js';
import { closeWorld, type Finding, openWorld } from './world.js';

/** What a schedule found, and what each of its steps did. */
export interface ScheduleResult {
  schedule: Schedule;
  findings: Finding[];
  /** One line per step (`n. step → what happened`), then the final check's own lines. */
  log: string[];
}

/** Runs `schedule`; a full disk needs a tmpfs (`useTmpfs` and the right to mount one), else it is skipped. */
export async function runSchedule(schedule: Schedule, useTmpfs = true): Promise<ScheduleResult> {
  const world = await openWorld(schedule.start, useTmpfs);
  try {
    world.log.push(`start ${schedule.start}${world.mounted ? ' (root on a tmpfs)' : ''}`);
    for (const [i, step] of schedule.steps.entries()) {
      const what = await runStep(world, step);
      world.log.push(`${i + 1}. ${describeStep(step)} → ${what}`);
    }
    const findings = [...world.findings, ...(await finalCheck(world))];
    return { schedule, findings, log: world.log };
  } finally {
    await closeWorld(world);
  }
}

/** A failed schedule as a report: its seed, how to replay it, its steps, what it found. */
export function reportOf(result: ScheduleResult, replayFlags = ''): string {
  const { schedule } = result;
  return [
    `seed ${schedule.seed}: ${result.findings.length} finding(s); replay: npm run soak -- --seed ${schedule.seed}${replayFlags}`,
    ...result.log.map((line) => `  ${line}`),
    ...result.findings.map(
      (f) => `  ✗ ${f.signature}\n      ${f.detail.split('\n').slice(0, 3).join('\n      ')}`,
    ),
  ].join('\n');
}
