/**
 * What a test learns of the requests an emulator gets: each one as received, and hooks called at fixed
 * points of its answer, so a test can act at a known request (stop the client there, change a switch).
 */

/** One request as received (query names lower-cased; empty values kept). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
  /** Sequence number (1, 2, …) of the TCP connection it came on: equal numbers mean keep-alive reuse. */
  connection: number;
  /** When it arrived (performance.now() of the emulator's process, ms). */
  arrivedMs: number;
  /** Refused with 429 by the `rateLimit` switch. */
  rateLimited: boolean;
}

/**
 * Calls into the test that runs an emulator in its own process; functions, so not switches of `--set`.
 * A hook that throws is the test's bug: the request is then answered with 500.
 */
export interface EmulatorHooks {
  /** Awaited once a request is recorded, before anything of its answer (faults included) is decided. */
  beforeAnswer?: (request: RecordedRequest) => Promise<void> | void;
  /** Called once the answer is sent or its connection is gone, whichever comes first. */
  afterAnswer?: (request: RecordedRequest) => void;
}
