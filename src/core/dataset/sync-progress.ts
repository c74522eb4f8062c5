/** One progress display across the jobs of a sync (a job a series and mode). */
import type { JobDeps, PlanEvent, ProgressEvent } from '../run/run-types.js';

/**
 * The listeners of a sync's jobs as one run: each job counts its plan and numbers its requests from zero,
 * so the plan told is the jobs' before it plus this one's, and ids are kept apart. `next()` gives the
 * deps of the next job.
 */
export function progressAcrossJobs(deps: Omit<JobDeps, 'onCommitted'>): () => JobDeps {
  const before: PlanEvent = { requests: 0, outputs: 0, skipped: 0 };
  let last: PlanEvent = { requests: 0, outputs: 0, skipped: 0 };
  let idBase = 0;
  let maxId = -1;
  const { onPlan, onProgress } = deps;
  return () => {
    before.requests += last.requests;
    before.outputs += last.outputs;
    before.skipped += last.skipped;
    last = { requests: 0, outputs: 0, skipped: 0 };
    idBase = maxId + 1;
    return {
      ...deps,
      onPlan: (event) => {
        last = event;
        onPlan?.({
          requests: before.requests + event.requests,
          outputs: before.outputs + event.outputs,
          skipped: before.skipped + event.skipped,
        });
      },
      onProgress: (event: ProgressEvent) => {
        const id = event.id + idBase;
        maxId = Math.max(maxId, id);
        onProgress?.({ ...event, id });
      },
    };
  };
}
