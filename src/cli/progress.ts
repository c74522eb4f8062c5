import type cliProgressModule from 'cli-progress';
import type { ProgressEvent } from '../core/run-types.js';
import type { Io } from './io.js';

/** Draws core progress events as bars on stderr, or returns undefined when nobody should see them. */
export async function createProgress(
  io: Io,
  wanted: boolean | undefined,
  quiet: boolean,
  dataOnTerminal: boolean,
): Promise<{ onProgress: (e: ProgressEvent) => void; stop: () => void } | undefined> {
  const show = wanted ?? io.stderrIsTTY;
  if (!show || quiet || dataOnTerminal) return undefined;
  // Loaded only when bars are drawn: it is a fifth of the CLI's start-up time otherwise.
  const { default: cliProgress } = await import('cli-progress');
  const bars = new cliProgress.MultiBar(
    {
      stream: io.stderr as NodeJS.WriteStream,
      clearOnComplete: true,
      hideCursor: true,
      format: '{label} {bar} {size} {rate}',
      barsize: 24,
      fps: 8,
      noTTYOutput: !io.stderrIsTTY,
      notTTYSchedule: 2000,
    },
    cliProgress.Presets.shades_classic,
  );
  const open = new Map<number, { bar: cliProgressModule.SingleBar; started: number }>();
  return {
    onProgress(event) {
      let entry = open.get(event.id);
      if (!entry) {
        const bar = bars.create(event.wireTotal ?? 0, 0, { label: event.label, size: '', rate: '' });
        entry = { bar, started: Date.now() };
        open.set(event.id, entry);
      }
      const seconds = Math.max(0.001, (Date.now() - entry.started) / 1000);
      const payload = {
        label: event.label,
        size: megabytes(event.bytes),
        rate: `${megabytes(event.bytes / seconds)}/s`,
      };
      // Without Content-Length (chunked, gzip) only bytes and rate mean anything: keep the bar full.
      if (event.wireTotal) entry.bar.update(event.wireBytes, payload);
      else entry.bar.update(0, payload);
      if (event.done) {
        entry.bar.stop();
        bars.remove(entry.bar);
        open.delete(event.id);
      }
    },
    stop: () => bars.stop(),
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}
