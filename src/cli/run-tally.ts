import type { PlanEvent, ProgressEvent } from '../core/run/run-types.js';
import type { RetryInfo } from '../core/run/scheduler.js';

/** One request whose body is coming in, as the progress display knows it: its last event's figures, and more. */
export interface ActiveDownload
  extends Pick<ProgressEvent, 'id' | 'label' | 'output' | 'bytes' | 'wireBytes' | 'wireTotal' | 'rows'> {
  startedMs: number;
  /**
   * More bytes decoded than received: a compressed body (gzip, deflate), whose decoded size nobody knows
   * and whose Content-Length counts compressed bytes. Core does not say which encoding a body has.
   */
  encoded: boolean;
}

/** A retry waiting for its delay. */
export interface RetryWait {
  attempt: number;
  /** What is retried: the URL's symbol and start, or the output started over. */
  subject: string;
  reason: string;
  /** When the retry is sent. */
  untilMs: number;
  /** Until when its status stays on screen: at least a moment, even for a retry without delay. */
  shownUntilMs: number;
}

/** How long a retry's status stays visible at least, so that one without delay is seen too. */
const RETRY_SHOWN_MS = 1500;
/** The window of the overall rate: recent enough to follow a slow-down, long enough not to flicker. */
const RATE_WINDOW_MS = 4000;

/**
 * The state of a run as told by core's events (plan, progress, retries), and the figures the display
 * derives from it: counts, bytes, rows, rate and ETA. Pure: every time comes in as an argument.
 */
export class RunTally {
  plan: PlanEvent | undefined;
  readonly active = new Map<number, ActiveDownload>();
  /** Requests that ended, by how. */
  finished = { ok: 0, empty: 0, failed: 0 };
  retries = 0;
  /** Outputs whose failure a progress event told. */
  readonly failedOutputs = new Set<string>();
  /** Any progress event came: some commands fetch without telling (the exchanges list). */
  heard = false;
  private finishedBytes = 0;
  private finishedRows = 0;
  private waits: RetryWait[] = [];
  private samples: { atMs: number; bytes: number }[] = [];

  constructor(readonly startedMs: number) {}

  /** Requests done (any outcome). */
  get done(): number {
    return this.finished.ok + this.finished.empty + this.finished.failed;
  }

  onPlan(event: PlanEvent): void {
    this.plan = { ...event };
  }

  /** Takes one progress event; returns the download when this event ended it. */
  onProgress(event: ProgressEvent, nowMs: number): ActiveDownload | undefined {
    this.heard = true;
    let download = this.active.get(event.id);
    if (!download) {
      download = {
        id: event.id,
        label: event.label,
        output: event.output,
        bytes: 0,
        wireBytes: 0,
        rows: 0,
        startedMs: nowMs,
        encoded: false,
      };
      this.active.set(event.id, download);
    }
    download.label = event.label;
    download.bytes = event.bytes;
    download.wireBytes = event.wireBytes;
    if (event.wireTotal === undefined) delete download.wireTotal;
    else download.wireTotal = event.wireTotal;
    download.rows = event.rows;
    // Identity bodies are decoded from the bytes received, so they can never be ahead of them.
    if (event.bytes > event.wireBytes) download.encoded = true;
    if (!event.done) {
      this.sample(nowMs);
      return undefined;
    }
    this.active.delete(event.id);
    this.finishedBytes += event.bytes;
    this.finishedRows += event.rows;
    this.finished[event.status ?? 'ok'] += 1;
    if (event.status === 'failed') this.failedOutputs.add(event.output ?? '-');
    this.sample(nowMs);
    return download;
  }

  onRetry(info: RetryInfo, nowMs: number): void {
    this.retries += 1;
    const untilMs = nowMs + info.delayMs;
    this.waits.push({
      attempt: info.attempt,
      subject: retrySubject(info.url),
      reason: info.reason,
      untilMs,
      shownUntilMs: Math.max(untilMs, nowMs + RETRY_SHOWN_MS),
    });
  }

  /** Retries still waiting (or just sent), the latest last. */
  waiting(nowMs: number): RetryWait[] {
    this.waits = this.waits.filter((w) => w.shownUntilMs > nowMs);
    return this.waits;
  }

  /** Decoded bytes of every request so far, running ones included. */
  bytes(): number {
    let sum = this.finishedBytes;
    for (const d of this.active.values()) sum += d.bytes;
    return sum;
  }

  rows(): number {
    let sum = this.finishedRows;
    for (const d of this.active.values()) sum += d.rows;
    return sum;
  }

  /** Decoded bytes per second over the last few seconds (0 before two samples). */
  rate(nowMs: number): number {
    const first = this.samples.find((s) => s.atMs >= nowMs - RATE_WINDOW_MS) ?? this.samples.at(-1);
    if (!first) return 0;
    const spanMs = nowMs - first.atMs;
    if (spanMs < 250) {
      const sinceStart = nowMs - this.startedMs;
      return sinceStart > 0 ? (this.bytes() / sinceStart) * 1000 : 0;
    }
    return ((this.bytes() - first.bytes) / spanMs) * 1000;
  }

  /**
   * The share of the plan done, or undefined when it cannot be known: no plan (reference commands), or
   * a single request whose decoded size is unknown (chunked or compressed).
   */
  fraction(): number | undefined {
    const planned = this.plan?.requests;
    if (planned === undefined || planned === 0) return undefined;
    let partial = 0;
    let unknown = 0;
    for (const d of this.active.values()) {
      const total = decodedTotal(d);
      if (total === undefined) unknown += 1;
      else partial += Math.min(1, d.bytes / total);
    }
    if (planned === 1 && this.done === 0 && unknown > 0) return undefined;
    return Math.min(1, (this.done + partial) / planned);
  }

  /** Milliseconds left, when the plan and the progress so far tell it; else undefined. */
  etaMs(nowMs: number): number | undefined {
    const fraction = this.fraction();
    const elapsedMs = nowMs - this.startedMs;
    if (fraction === undefined || fraction <= 0 || fraction >= 1 || elapsedMs < 1000) return undefined;
    // Before the first request ends, only known sizes tell how far along the plan is, and the first
    // percents, mostly waiting for the server, would tell a wild time.
    if (
      this.done === 0 &&
      (fraction < 0.05 || [...this.active.values()].some((d) => decodedTotal(d) === undefined))
    )
      return undefined;
    return (elapsedMs * (1 - fraction)) / fraction;
  }

  private sample(nowMs: number): void {
    const last = this.samples.at(-1);
    if (last && nowMs - last.atMs < 100) {
      last.bytes = this.bytes();
      return;
    }
    this.samples.push({ atMs: nowMs, bytes: this.bytes() });
    while (this.samples.length > 2 && this.samples[1]!.atMs < nowMs - RATE_WINDOW_MS) this.samples.shift();
  }
}

/** The decoded size of a download when known: Content-Length of an identity body (core's guarantee). */
export function decodedTotal(download: ActiveDownload): number | undefined {
  return download.encoded ? undefined : download.wireTotal;
}

/**
 * What a retry is for, short: "ESM25 2025-03-05" from a URL's symbol and start, else its page name; a
 * started-over output comes as its path and stays so.
 */
export function retrySubject(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const symbol = parsed.searchParams.get('symbol');
  if (!symbol) return parsed.pathname.split('/').pop() || parsed.host;
  const start = /^(\d{4})(\d{2})(\d{2})/.exec(parsed.searchParams.get('start') ?? '');
  return start ? `${symbol} ${start[1]}-${start[2]}-${start[3]}` : symbol;
}
