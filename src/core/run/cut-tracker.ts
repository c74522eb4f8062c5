/**
 * Decides whether a time-series response may have been cut by the server (docs/completeness.md). A response
 * is taken as cut when its rows reach the limit in force: `--max-rows` (the user states the server's cap) or
 * a cap learned earlier in the run. With no stated cap, a silent cap of unknown size is caught by probing: a
 * response of at least PROBE_FLOOR rows that reaches the largest count verified complete so far gets one
 * continuation request; a smaller one is complete as it is, so a batch of small responses sends no probe. Every
 * cut response has at least as many rows as any complete one (a cap never lets more through; ticks past it
 * only by the rest of one second, which only raises the cut count), so every cut is flagged or probed. Probes
 * cost one small request each, and only responses that reach a new high of rows are probed. A probe that
 * finds more rows teaches the cap.
 */
import type { CutVerdict } from '../pipeline/hold-back.js';

/**
 * Fewest rows a silent cap is looked for at: the one cap the service is known to have advertised was 14,000,
 * and a probe costs a round trip, so probing every small response would add one to most runs for a cap
 * that is not known to exist. A smaller cap is stated with --max-rows.
 */
export const PROBE_FLOOR = 5_000;

/** What one endpoint has taught the run so far. */
interface EndpointState {
  /** Most rows of a response verified complete by a probe, and how many probes verified that count. */
  verifiedMax: number;
  verifiedAtMax: number;
  /** Fewest rows of a response found cut; undefined until one was. */
  learnedCap?: number;
}

export interface CutTrackerOptions {
  /** --max-rows / MDGET_MAX_ROWS: rows at which a response is taken as cut; probing stays off. */
  maxRows?: number;
}

/** Run-wide memory of caps, per endpoint (ticks, minutes and EOD may be capped differently). */
export class CutTracker {
  private readonly endpoints = new Map<string, EndpointState>();
  /** Probes sent, and how many found a cut (for the report and the bench). */
  probes = 0;
  probeHits = 0;

  constructor(private readonly options: CutTrackerOptions = {}) {}

  /** The verdict on a response of `rows` rows from `endpoint` (the page name). */
  verdict(endpoint: string, rows: number): CutVerdict {
    if (rows === 0) return 'complete';
    const { maxRows } = this.options;
    const state = this.state(endpoint);
    const limit = Math.min(maxRows ?? Number.POSITIVE_INFINITY, state.learnedCap ?? Number.POSITIVE_INFINITY);
    if (rows >= limit) return 'cut';
    if (maxRows !== undefined || rows < PROBE_FLOOR) return 'complete';
    // A tie is probed too (a cap can equal a complete count), until two probes verified that count: equal
    // counts are common (EOD symbols on one calendar), so each costs at most two extra requests.
    if (rows > state.verifiedMax) return 'probe';
    return rows === state.verifiedMax && state.verifiedAtMax < 2 ? 'probe' : 'complete';
  }

  /** The probe of a response of `rows` rows came back: it found more rows (`cut`) or none (complete). */
  learn(endpoint: string, rows: number, cut: boolean): void {
    const state = this.state(endpoint);
    this.probes++;
    if (cut) {
      this.probeHits++;
      state.learnedCap = Math.min(state.learnedCap ?? Number.POSITIVE_INFINITY, rows);
    } else if (rows > state.verifiedMax) {
      state.verifiedMax = rows;
      state.verifiedAtMax = 1;
    } else if (rows === state.verifiedMax) {
      state.verifiedAtMax++;
    }
  }

  private state(endpoint: string): EndpointState {
    let state = this.endpoints.get(endpoint);
    if (!state) {
      state = { verifiedMax: 0, verifiedAtMax: 0 };
      this.endpoints.set(endpoint, state);
    }
    return state;
  }
}
