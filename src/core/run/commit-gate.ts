/** File outputs whose fsync and rename may wait at once, each holding its file open. */
const COMMITS_IN_FLIGHT = 16;

/**
 * Holds the outputs back while COMMITS_IN_FLIGHT commits are running. A finished commit wakes the
 * waiting outputs once; a Promise.race over the running commits, taken again by every waiting output
 * after each one, cost a reaction per commit per waiting output, which a run at --concurrency 32 felt
 * (bench/README.md, "Batch against the floor").
 */
export class CommitGate {
  private running = 0;
  private waiting: (() => void)[] = [];

  /** Counts `commit` until it settles. */
  add(commit: Promise<unknown>): void {
    this.running++;
    const done = () => {
      this.running--;
      if (this.running < COMMITS_IN_FLIGHT) for (const wake of this.waiting.splice(0)) wake();
    };
    commit.then(done, done);
  }

  /** Resolves once fewer than COMMITS_IN_FLIGHT commits run. */
  async room(): Promise<void> {
    while (this.running >= COMMITS_IN_FLIGHT)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}
