import { type ActiveDownload, decodedTotal, type RetryWait, type RunTally } from './run-tally.js';

/** Colours of the display; identity functions when colour is off (NO_COLOR, not a terminal). */
export interface LineStyle {
  bar: (text: string) => string;
  warn: (text: string) => string;
  fail: (text: string) => string;
  dim: (text: string) => string;
}

/** One piece of a line: when the line is too wide the lowest `priority` goes first, then `shrink` is cut. */
export interface LinePart {
  text: string;
  style?: (text: string) => string;
  priority?: number;
  shrink?: boolean;
}

const BAR_WIDTH = 16;
const DOWNLOAD_BAR_WIDTH = 16;

/** "512 B", "12.3 KiB", "76.0 MiB": binary units, one decimal from KiB on. */
export function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** "3.4 s", "42 s", "1m05s", "2h03m": short enough for a status line. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 9.95) return `${seconds.toFixed(1)} s`;
  if (seconds < 59.5) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(Math.round(seconds) / 60);
  if (minutes < 60) return `${minutes}m${String(Math.round(seconds) % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** 12,345: rows and counts with thousands separators, whatever the locale. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** "1 retry", "3 retries". */
export const plural = (n: number, one: string, many: string): string =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * A bar `width` cells wide: filled to `fraction`, or, when the total is unknown, a block sweeping to and
 * fro with the clock (an indeterminate bar, never a full one).
 */
export function barOf(fraction: number | undefined, width: number, nowMs: number): string {
  if (fraction !== undefined) {
    const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
    return '█'.repeat(filled) + '░'.repeat(width - filled);
  }
  const block = Math.max(1, Math.round(width / 5));
  const travel = width - block;
  const step = Math.floor(nowMs / 125) % (2 * travel);
  const at = step <= travel ? step : 2 * travel - step;
  return '░'.repeat(at) + '█'.repeat(block) + '░'.repeat(travel - at);
}

/** Control characters (a server's text, a file name) become '?': nothing but us moves the cursor. */
export const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');

/**
 * Joins parts into at most `width` visible cells (styles add escapes, not width): the parts of lowest
 * priority are dropped first, then the `shrink` part is cut (with '…'), then the unstyled text.
 */
export function fitLine(parts: readonly LinePart[], width: number): string {
  let kept = parts.map((part) => ({ ...part }));
  const length = () => kept.reduce((n, p) => n + p.text.length, 0);
  while (length() > width) {
    const droppable = kept.filter((p) => p.priority !== undefined);
    if (droppable.length === 0) break;
    const lowest = droppable.reduce((a, b) => ((b.priority ?? 0) <= (a.priority ?? 0) ? b : a));
    kept = kept.filter((p) => p !== lowest);
  }
  const shrinkable = kept.find((p) => p.shrink);
  if (shrinkable && length() > width) {
    const keep = Math.max(8, shrinkable.text.length - (length() - width));
    if (keep < shrinkable.text.length) shrinkable.text = `${shrinkable.text.slice(0, keep - 1)}…`;
  }
  if (length() > width)
    return `${kept
      .map((p) => p.text)
      .join('')
      .slice(0, Math.max(0, width - 1))}…`;
  return kept.map((p) => (p.style ? p.style(p.text) : p.text)).join('');
}

/** The parts the overall line and the plain line share: counts, bytes, rows, rate, ETA, retries, failures. */
function overallFields(tally: RunTally, nowMs: number, style: LineStyle): LinePart[] {
  const parts: LinePart[] = [];
  const plan = tally.plan;
  parts.push({
    text: plan
      ? `${formatCount(tally.done)} of ${plural(plan.requests, 'request', 'requests')}`
      : 'receiving',
  });
  parts.push({ text: ` · ${formatBytes(tally.bytes())}`, priority: 6 });
  parts.push({ text: ` · ${plural(tally.rows(), 'row', 'rows')}`, priority: 3 });
  parts.push({ text: ` · ${formatBytes(tally.rate(nowMs))}/s`, priority: 2 });
  const eta = tally.etaMs(nowMs);
  if (eta !== undefined) parts.push({ text: ` · ETA ${formatDuration(eta)}`, priority: 4 });
  if (tally.retries > 0)
    parts.push({ text: ` · ${plural(tally.retries, 'retry', 'retries')}`, style: style.warn, priority: 7 });
  if (tally.finished.failed > 0)
    parts.push({ text: ` · ${formatCount(tally.finished.failed)} failed`, style: style.fail, priority: 8 });
  return parts;
}

/** The top line of the display: the plan's bar (indeterminate when unknowable), then the run's figures. */
export function overallLine(tally: RunTally, nowMs: number, width: number, style: LineStyle): string {
  const fraction = tally.fraction();
  const percent = fraction === undefined ? '' : ` ${String(Math.floor(fraction * 100)).padStart(3)}%`;
  return fitLine(
    [
      { text: barOf(fraction, BAR_WIDTH, nowMs), style: style.bar },
      { text: percent, priority: 1 },
      { text: ' ' },
      ...overallFields(tally, nowMs, style),
    ],
    width,
  );
}

/** The same figures as one plain line, for a log (`--progress` on a non-terminal): no bar, no escapes. */
export function plainLine(tally: RunTally, nowMs: number): string {
  const fraction = tally.fraction();
  const none = (text: string) => text;
  const fields = overallFields(tally, nowMs, { bar: none, warn: none, fail: none, dim: none });
  const running = tally.active.size > 0 ? ` · ${formatCount(tally.active.size)} running` : '';
  const percent = fraction === undefined ? '' : `${Math.floor(fraction * 100)}% · `;
  return `mdget: ${percent}${fields.map((p) => p.text).join('')}${running}`;
}

/**
 * One line per download: label, bar and percentage when its decoded size is known, else an indeterminate
 * bar with bytes and rate only.
 */
export function downloadLine(
  download: ActiveDownload,
  nowMs: number,
  width: number,
  labelWidth: number,
  style: LineStyle,
): string {
  const total = decodedTotal(download);
  const fraction = total === undefined ? undefined : Math.min(1, download.bytes / total);
  const seconds = (nowMs - download.startedMs) / 1000;
  const label = printable(download.label);
  const parts: LinePart[] = [
    // Labels share one column; a longer one is cut to it, so that its figures stay on the line.
    {
      text: `  ${label.length > labelWidth ? `${label.slice(0, labelWidth - 1)}…` : label.padEnd(labelWidth)}`,
      shrink: true,
    },
    { text: ' ' },
    { text: barOf(fraction, DOWNLOAD_BAR_WIDTH, nowMs + download.id * 375), style: style.bar },
  ];
  if (fraction !== undefined) {
    parts.push({ text: ` ${String(Math.floor(fraction * 100)).padStart(3)}%`, priority: 5 });
    parts.push({ text: ` ${formatBytes(download.bytes)}/${formatBytes(total!)}`, priority: 6 });
  } else {
    parts.push({ text: ` ${formatBytes(download.bytes)}`, priority: 6 });
  }
  if (seconds >= 0.25) parts.push({ text: ` · ${formatBytes(download.bytes / seconds)}/s`, priority: 4 });
  if (download.rows > 0) parts.push({ text: ` · ${plural(download.rows, 'row', 'rows')}`, priority: 2 });
  return fitLine(parts, width);
}

/** The status of retries waiting: the latest one's attempt, countdown and reason, and how many more wait. */
export function retryLine(
  waits: readonly RetryWait[],
  nowMs: number,
  retries: number,
  width: number,
  style: LineStyle,
): string {
  const latest = waits.at(-1)!;
  const leftMs = latest.untilMs - nowMs;
  const when =
    leftMs > 0
      ? `retry ${latest.attempt} of ${retries} in ${formatDuration(leftMs)}`
      : `retrying (${latest.attempt} of ${retries})`;
  const more = waits.length > 1 ? ` (+${waits.length - 1} more)` : '';
  return fitLine(
    [
      { text: `↻ ${when}${more}: `, style: style.warn },
      {
        text: `${printable(latest.subject)}: ${printable(withoutUrls(latest.reason))}`,
        style: style.warn,
        shrink: true,
      },
    ],
    width,
  );
}

/** A reason without the URLs in it (the subject names the request): what went wrong fits on the line. */
export const withoutUrls = (reason: string): string =>
  reason.replace(/https?:\/\/\S+?(?=:\s|\s|$):?\s*/g, '');
