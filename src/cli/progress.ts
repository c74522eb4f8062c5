import type cliProgressModule from 'cli-progress';
import type { PlanEvent, ProgressEvent } from '../core/run/run-types.js';
import type { RetryInfo } from '../core/run/scheduler.js';
import type { Io } from './io.js';
import type { Log } from './log.js';
import {
  downloadLine,
  type LineStyle,
  overallLine,
  plainLine,
  printable,
  retryLine,
} from './progress-lines.js';
import { RunTally } from './run-tally.js';

/**
 * How progress is shown: `bars` redrawn in place on a terminal, plain `lines` every few seconds for a log
 * (`--progress` on a non-terminal), or `none`.
 */
export type ProgressMode = 'bars' | 'lines' | 'none';

/** The mode for a run: --progress / --no-progress, else bars when stderr is a terminal; never with -q. */
export function progressMode(
  io: Io,
  wanted: boolean | undefined,
  quiet: boolean,
  dataOnTerminal: boolean,
): ProgressMode {
  // Data on the same terminal would be torn apart by bars drawn in place between its lines.
  if (quiet || !(wanted ?? io.stderrIsTTY) || dataOnTerminal) return 'none';
  return io.stderrIsTTY ? 'bars' : 'lines';
}

/** Everything the user sees on stderr while a run lasts, fed by core's events. */
export interface ProgressDisplay {
  readonly mode: ProgressMode;
  /** The run's figures, also for the summary at its end. */
  readonly tally: RunTally;
  onPlan(event: PlanEvent): void;
  onProgress(event: ProgressEvent): void;
  /** A retry waiting: a status line on a terminal (mode `lines` leaves the message to the caller). */
  onRetry(info: RetryInfo): void;
  /** One finished line (a note, a warning): printed above the bars and never drawn over. */
  log(line: string): void;
  /** Prints the lines still waiting and leaves nothing of the bars behind; the cursor is shown again. */
  stop(): void;
}

export interface DisplayOptions {
  /** The retry count allowed (--retries), shown as "retry 1 of 3". */
  retries: number;
  now?: () => number;
  /** Time between two plain lines in mode `lines`. */
  intervalMs?: number;
  /** The run's signal: downloads cut by an interrupt are not announced as failures. */
  signal?: AbortSignal;
  /** The run's log, for failures as error lines naming their file (bars print above themselves). */
  log?: Log;
}

/** Most download lines drawn at once; the rest are counted in one line. */
const MAX_DOWNLOAD_LINES = 10;

/** Creates the display of one run in `mode`, drawing on `io.stderr` only. */
export async function createProgress(
  io: Io,
  mode: ProgressMode,
  options: DisplayOptions,
): Promise<ProgressDisplay> {
  const now = options.now ?? Date.now;
  const tally = new RunTally(now());
  const style: LineStyle = {
    bar: io.color.cyan,
    warn: io.color.yellow,
    fail: io.color.red,
    dim: io.color.dim,
  };
  const failedLine = (event: ProgressEvent): string | undefined => {
    if (event.status !== 'failed' || options.signal?.aborted) return undefined;
    const where = event.output && event.output !== '-' ? ` (${printable(event.output)})` : '';
    return style.fail(`mdget: failed: ${printable(event.label)}${where}`);
  };
  const base = {
    mode,
    tally,
    onPlan: (event: PlanEvent) => tally.onPlan(event),
    onRetry: (info: RetryInfo) => tally.onRetry(info, now()),
  };

  if (mode === 'none') {
    return {
      ...base,
      onProgress: (event) => void tally.onProgress(event, now()),
      log: (line) => void io.stderr.write(`${line}\n`),
      stop: () => {},
    };
  }

  if (mode === 'lines') {
    const timer = setInterval(
      () => io.stderr.write(`${plainLine(tally, now())}\n`),
      options.intervalMs ?? 2000,
    );
    timer.unref();
    const log = (line: string) => void io.stderr.write(`${line}\n`);
    return {
      ...base,
      onProgress(event) {
        const failed = tally.onProgress(event, now()) && failedLine(event);
        if (failed && options.log) options.log.error(failed, event.output ? { file: event.output } : {});
        else if (failed) log(failed);
      },
      log,
      stop: () => clearInterval(timer),
    };
  }

  // Loaded only when bars are drawn: it is a fifth of the CLI's start-up time otherwise.
  const { default: cliProgress } = await import('cli-progress');
  const stream = io.stderr as NodeJS.WriteStream;
  // Each of cli-progress's bars is one line of the frame computed before every redraw: lines come and go
  // without removing bars (removing one leaves its line behind), unused ones draw as empty lines.
  let frame: string[] = [];
  let closing = false;
  const bars = new cliProgress.MultiBar({
    // cli-progress cuts each line at the terminal's width counting escapes as characters, which would cut
    // coloured lines short or in the middle of an escape: it gets no width, and lines are fitted here.
    stream: {
      isTTY: true,
      columns: Number.MAX_SAFE_INTEGER,
      write: (chunk: string) => stream.write(chunk),
    } as unknown as NodeJS.WriteStream,
    format: (_options, _params, payload: { slot: number }) => frame[payload.slot] ?? '',
    fps: 8,
    hideCursor: true,
    // Keeps the terminal's own wrapping, so that a long note wraps instead of being cut.
    linewrap: true,
    // A note printed above shifts every line down: each must be drawn again, changed or not.
    forceRedraw: true,
    clearOnComplete: true,
    gracefulExit: false,
  });
  const slots: cliProgressModule.SingleBar[] = [];
  const ensureSlots = (count: number) => {
    while (slots.length < count) slots.push(bars.create(1, 0, { slot: slots.length }));
  };
  const render = (): string[] => {
    if (closing) return [];
    const at = now();
    const width = Math.max(20, (stream.columns || 80) - 1);
    const lines = [overallLine(tally, at, width, style)];
    const waits = tally.waiting(at);
    if (waits.length > 0) lines.push(retryLine(waits, at, options.retries, width, style));
    const downloads = [...tally.active.values()];
    const room = Math.max(1, Math.min(MAX_DOWNLOAD_LINES, (stream.rows || 24) - lines.length - 2));
    const shown = downloads.length > room ? downloads.slice(0, room - 1) : downloads;
    const labelWidth = Math.min(
      Math.floor(width * 0.4),
      Math.max(0, ...shown.map((d) => printable(d.label).length)),
    );
    for (const d of shown) lines.push(downloadLine(d, at, width, labelWidth, style));
    if (shown.length < downloads.length) lines.push(style.dim(`  … ${downloads.length - shown.length} more`));
    return lines;
  };
  bars.on('update-pre', () => {
    frame = render();
    ensureSlots(frame.length);
  });
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    ensureSlots(1);
  };
  const log = (line: string) => {
    if (closing) {
      stream.write(`${line}\n`);
      return;
    }
    start();
    // Erasing to the end of the screen first clears what the bars had there, even when the line wraps.
    bars.log(`\x1b[J${line}\n`);
  };
  return {
    ...base,
    onPlan(event) {
      start();
      tally.onPlan(event);
    },
    onRetry(info) {
      start();
      tally.onRetry(info, now());
    },
    onProgress(event) {
      start();
      const failed = tally.onProgress(event, now()) && failedLine(event);
      if (failed) log(failed);
    },
    log,
    stop() {
      if (!started || closing) return;
      closing = true;
      bars.update(); // prints the notes still waiting, under which the frame is empty
      bars.stop();
    },
  };
}
