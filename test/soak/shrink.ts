/**
 * Shrinking a failed schedule: the smallest step list that still shows the same finding, found by
 * replaying sub-schedules (a step left out, or one fault of a sync left out), greedily, within a budget
 * of replays. A finding that needs a kill at an exact moment may not come back on every replay: the
 * result is the smallest list seen to fail, never one that passed.
 */
import type { ScheduleResult } from './run-schedule.js';
import type { Schedule, Step } from './schedule.js';

/** The smaller schedules to try for `schedule`: each step left out, then each fault of a sync. */
function candidatesOf(schedule: Schedule): Schedule[] {
  const out: Schedule[] = [];
  const { steps } = schedule;
  for (let i = steps.length - 1; i >= 0; i--)
    out.push({ ...schedule, steps: steps.filter((_, j) => j !== i) });
  for (const [i, step] of steps.entries()) {
    if (step.op !== 'sync') continue;
    for (const key of ['kill', 'server', 'diskFreeKiB', 'second'] as const) {
      if (step[key] === undefined) continue;
      const simpler: Step = { ...step };
      delete simpler[key];
      out.push({ ...schedule, steps: steps.map((s, j) => (j === i ? simpler : s)) });
    }
  }
  return out;
}

/** The smallest schedule seen to fail with `signature`, and how many replays it took. */
export async function shrink(
  failed: ScheduleResult,
  signature: string,
  replay: (schedule: Schedule) => Promise<ScheduleResult>,
  budget: number,
): Promise<{ result: ScheduleResult; replays: number }> {
  let best = failed;
  let replays = 0;
  for (let progress = true; progress && replays < budget; ) {
    progress = false;
    for (const candidate of candidatesOf(best.schedule)) {
      if (replays >= budget) break;
      replays++;
      const result = await replay(candidate);
      if (result.findings.some((f) => f.signature === signature)) {
        best = result;
        progress = true;
        break;
      }
    }
  }
  return { result: best, replays };
}
