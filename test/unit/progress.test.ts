import { PassThrough, Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { createProgress, type ProgressMode, progressMode } from '../../src/cli/progress.js';
import {
  barOf,
  fitLine,
  formatBytes,
  formatDuration,
  overallLine,
  plainLine,
  withoutUrls,
} from '../../src/cli/progress-lines.js';
import { RunTally, retrySubject } from '../../src/cli/run-tally.js';
import { formatSummary, summaryOf, untoldFailures } from '../../src/cli/summary.js';
import { MdgetError } from '../../src/core/model/errors.js';
import type { BatchResult, ProgressEvent, RequestResult } from '../../src/core/run/run-types.js';
import { FakeTerminal } from '../helpers/fake-terminal.js';

/** An Io whose stderr is `stderr`, coloured like a terminal (level 1) unless told otherwise. */
function ioWith(stderr: NodeJS.WritableStream & { isTTY?: boolean }, colorLevel: 0 | 1 = 1): Io {
  return {
    stdout: new PassThrough(),
    stderr,
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: stderr.isTTY === true,
    env: {},
    cwd: '/',
    color: new Chalk({ level: colorLevel }),
  };
}

const event = (id: number, fields: Partial<ProgressEvent> = {}): ProgressEvent => ({
  id,
  label: `ticks ESM25 2025-03-${String(10 + id).padStart(2, '0')}`,
  output: `out/ESM25-2025-03-${String(10 + id).padStart(2, '0')}.csv`,
  bytes: 0,
  wireBytes: 0,
  rows: 0,
  done: false,
  ...fields,
});

const MiB = 1_048_576;
const TICKS_URL =
  'http://127.0.0.1:9/historical/queryticks.ashx?username=***&password=***&symbol=ESM25&start=20250305&end=20250306';
const plain = (text: string) => text;
const PLAIN_STYLE = { bar: plain, warn: plain, fail: plain, dim: plain };

describe('progress display on a terminal (fake terminal, fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function bars(columns = 100, rows = 24) {
    const terminal = new FakeTerminal(columns, rows);
    const display = await createProgress(ioWith(terminal), 'bars', { retries: 3 });
    const frame = (ms = 200) => {
      vi.advanceTimersByTime(ms);
      return terminal.text();
    };
    return { terminal, display, frame };
  }

  it('draws the overall line and one line per download, then leaves only the notes behind', async () => {
    const { terminal, display, frame } = await bars();
    display.onPlan({ requests: 40, outputs: 40, skipped: 0 });
    display.onProgress(event(1, { bytes: 2 * MiB, wireBytes: 2 * MiB, wireTotal: 4 * MiB, rows: 5000 }));
    display.onProgress(event(2, { bytes: 3 * MiB, wireBytes: MiB / 2, rows: 7000 }));
    let screen = frame(400);
    const lines = screen.split('\n');
    expect(lines[0]).toMatch(/^[█░]{16}\s+1% 0 of 40 requests · 5\.0 MiB · 12,000 rows · /);
    // identity with Content-Length: a percentage and the decoded total
    expect(lines[1]).toMatch(/^ {2}ticks ESM25 2025-03-11 [█░]{16} {2}50% 2\.0 MiB\/4\.0 MiB/);
    // gzip (more decoded than received): decoded bytes only, no percentage, no full bar
    expect(lines[2]).toMatch(
      /^ {2}ticks ESM25 2025-03-12 [█░]{16} 3\.0 MiB · [\d.]+ [KM]iB\/s · 7,000 rows$/,
    );
    expect(lines[2]).not.toMatch(/%|█{16}/);
    expect(lines).toHaveLength(3);
    expect(terminal.cursorVisible).toBe(false);

    display.log('mdget: no records for ticks ESM25 2025-03-08');
    display.onProgress(event(1, { bytes: 4 * MiB, wireBytes: 4 * MiB, wireTotal: 4 * MiB, rows: 9000 }));
    display.onProgress(
      event(1, { bytes: 4 * MiB, wireBytes: 4 * MiB, rows: 9000, done: true, status: 'ok' }),
    );
    screen = frame();
    expect(screen.split('\n')[0]).toBe('mdget: no records for ticks ESM25 2025-03-08');
    expect(screen.split('\n')[1]).toMatch(/ 1 of 40 requests · 7\.0 MiB · 16,000 rows · /);
    expect(screen).not.toContain('2025-03-11 ');

    display.log('mdget: a second note');
    screen = frame(1000);
    expect(screen.split('\n').slice(0, 2)).toEqual([
      'mdget: no records for ticks ESM25 2025-03-08',
      'mdget: a second note',
    ]);
    display.log('mdget: a last note, still waiting for a frame');
    display.stop();
    expect(terminal.text()).toBe(
      [
        'mdget: no records for ticks ESM25 2025-03-08',
        'mdget: a second note',
        'mdget: a last note, still waiting for a frame',
      ].join('\n'),
    );
    expect(terminal.cursorVisible).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    display.log('mdget: after the end');
    expect(terminal.text().split('\n').at(-1)).toBe('mdget: after the end');
  });

  it('keeps a long note whole (it wraps) and erases what the bars left under it', async () => {
    const { terminal, display, frame } = await bars(40, 10);
    display.onPlan({ requests: 3, outputs: 3, skipped: 0 });
    for (const id of [1, 2, 3]) display.onProgress(event(id, { bytes: 1000, wireBytes: 1000 }));
    frame();
    const note = `mdget: skipped ${'x'.repeat(50)}.csv: it exists (--skip-existing)`;
    display.log(note);
    display.log('mdget: short');
    frame();
    display.stop();
    expect(terminal.text()).toBe(
      `${note.slice(0, 40)}\n${note.slice(40, 80)}\n${note.slice(80)}\nmdget: short`,
    );
  });

  it('fits every line to the terminal width, escapes not counted', async () => {
    const { terminal, display, frame } = await bars(50, 10);
    display.onPlan({ requests: 1200, outputs: 1200, skipped: 0 });
    display.onRetry({ url: TICKS_URL, attempt: 2, delayMs: 4000, reason: `HTTP 503: ${'busy '.repeat(20)}` });
    display.onProgress(
      event(1, {
        label: `ticks ${'VERYLONGSYMBOL'.repeat(4)} 2025-03-11`,
        bytes: 5e9,
        wireBytes: 5e9,
        rows: 1e8,
      }),
    );
    const screen = frame();
    for (const line of screen.split('\n')) expect(line.length).toBeLessThan(50);
    expect(screen).toMatch(/0 of 1,200 requests/);
    expect(screen).toMatch(/↻ retry 2 of 3 in 3\.9 s: ESM25 2025-03-05: HTTP …/);
    expect(screen).toMatch(/^ {2}ticks VERYLONGSYMB… [█░]{16} 4\.7 GiB$/m);
    expect(terminal.raw).toContain('\x1b[36m'); // coloured, and still within the width
    display.stop();
  });

  it('shows a retry as a status line while it waits, then drops it', async () => {
    const { display, frame } = await bars();
    display.onPlan({ requests: 2, outputs: 2, skipped: 0 });
    display.onRetry({
      url: TICKS_URL,
      attempt: 1,
      delayMs: 3000,
      reason: 'HTTP 503: 503 Service Unavailable',
    });
    let screen = frame();
    expect(screen.split('\n')[0]).toMatch(/0 of 2 requests .* · 1 retry$/);
    expect(screen.split('\n')[1]).toBe(
      '↻ retry 1 of 3 in 2.9 s: ESM25 2025-03-05: HTTP 503: 503 Service Unavailable',
    );
    screen = frame(2000);
    expect(screen.split('\n')[1]).toBe(
      '↻ retry 1 of 3 in 0.9 s: ESM25 2025-03-05: HTTP 503: 503 Service Unavailable',
    );
    screen = frame(1000);
    expect(screen).not.toContain('↻');
    expect(screen).toMatch(/· 1 retry$/);
    display.stop();
  });

  it('prints a failed download as a line that stays, and counts it', async () => {
    const { terminal, display, frame } = await bars();
    display.onPlan({ requests: 2, outputs: 2, skipped: 0 });
    display.onProgress(event(1, { bytes: 30, wireBytes: 30 }));
    display.onProgress(event(1, { bytes: 30, wireBytes: 30, done: true, status: 'failed' }));
    const screen = frame();
    expect(screen.split('\n')[0]).toBe('mdget: failed: ticks ESM25 2025-03-11 (out/ESM25-2025-03-11.csv)');
    expect(screen.split('\n')[1]).toMatch(/1 of 2 requests .* · 1 failed$/);
    display.stop();
    expect(terminal.text()).toBe('mdget: failed: ticks ESM25 2025-03-11 (out/ESM25-2025-03-11.csv)');
  });

  it('does not call downloads cut by an interrupt failures', async () => {
    const terminal = new FakeTerminal(100, 24);
    const controller = new AbortController();
    const display = await createProgress(ioWith(terminal), 'bars', { retries: 3, signal: controller.signal });
    display.onPlan({ requests: 2, outputs: 2, skipped: 0 });
    display.onProgress(event(1, { bytes: 30, wireBytes: 30 }));
    vi.advanceTimersByTime(200);
    controller.abort();
    display.onProgress(event(1, { bytes: 30, wireBytes: 30, done: true, status: 'failed' }));
    vi.advanceTimersByTime(200);
    display.stop();
    expect(terminal.text()).toBe('');
  });

  it('has an indeterminate overall bar when the total cannot be known', async () => {
    const { display, frame } = await bars();
    // a reference command: no plan; one gzip body
    display.onProgress(event(0, { bytes: 5000, wireBytes: 900 }));
    const first = frame().split('\n')[0]!;
    const later = frame(500).split('\n')[0]!;
    expect(first).toMatch(/^[█░]{16} receiving · 4\.9 KiB · /);
    expect(first).not.toMatch(/%/);
    expect(first.slice(0, 16)).not.toBe(later.slice(0, 16)); // it moves
    display.stop();
  });

  it('draws lines that did not change again under a note', async () => {
    const { display, frame } = await bars();
    display.onPlan({ requests: 2, outputs: 2, skipped: 0 });
    const idle = frame(6000);
    expect(frame()).toBe(idle);
    display.log('mdget: note');
    expect(frame()).toBe(`mdget: note\n${idle}`);
    display.stop();
  });

  it('draws nothing and leaves the cursor alone when no event came', async () => {
    const { terminal, display, frame } = await bars();
    frame(1000);
    display.stop();
    expect(terminal.raw).toBe('');
  });
});

describe('progress display in a log (--progress, stderr not a terminal)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes one plain line every interval and notes as lines: no escapes, no blank lines', async () => {
    let written = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.toString();
        callback();
      },
    });
    const display = await createProgress(ioWith(sink, 0), 'lines', { retries: 3 });
    display.onPlan({ requests: 4, outputs: 4, skipped: 0 });
    display.onProgress(event(1, { bytes: MiB, wireBytes: MiB, rows: 100 }));
    vi.advanceTimersByTime(2000);
    display.log('mdget: no records for ticks ESM25 2025-03-08');
    display.onProgress(event(1, { bytes: MiB, wireBytes: MiB, rows: 100, done: true, status: 'failed' }));
    vi.advanceTimersByTime(2000);
    display.stop();
    vi.advanceTimersByTime(4000);
    expect(written).not.toMatch(/\x1b|\r/);
    expect(written.split('\n')).toEqual([
      expect.stringMatching(/^mdget: 0% · 0 of 4 requests · 1\.0 MiB · 100 rows · .* · 1 running$/),
      'mdget: no records for ticks ESM25 2025-03-08',
      'mdget: failed: ticks ESM25 2025-03-11 (out/ESM25-2025-03-11.csv)',
      expect.stringMatching(/^mdget: 25% · 1 of 4 requests · 1\.0 MiB · 100 rows · .* · 1 failed$/),
      '',
    ]);
  });
});

describe('progressMode', () => {
  const io = (stderrIsTTY: boolean) => ({ ...ioWith(new PassThrough()), stderrIsTTY });
  it.each<[boolean, boolean | undefined, boolean, boolean, ProgressMode]>([
    [true, undefined, false, false, 'bars'],
    [false, undefined, false, false, 'none'],
    [false, true, false, false, 'lines'],
    [true, false, false, false, 'none'],
    [true, true, true, false, 'none'], // --quiet wins
    [true, undefined, false, true, 'none'], // data on the same terminal
  ])('stderr a tty %s, --progress %s, -q %s, data on terminal %s: %s', (tty, wanted, quiet, data, mode) =>
    expect(progressMode(io(tty), wanted, quiet, data)).toBe(mode),
  );
});

describe('progress lines (pure)', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [13_526_000, '12.9 MiB'],
    [76 * 1e9, '70.8 GiB'],
  ])('formatBytes(%d) = %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));

  it.each([
    [0, '0.0 s'],
    [3_420, '3.4 s'],
    [42_400, '42 s'],
    [65_000, '1m05s'],
    [7_380_000, '2h03m'],
  ])('formatDuration(%d) = %s', (ms, text) => expect(formatDuration(ms)).toBe(text));

  it('fills a bar to its fraction, or sweeps a block when the total is unknown', () => {
    expect(barOf(0.5, 10, 0)).toBe('█████░░░░░');
    expect(barOf(1, 4, 0)).toBe('████');
    const sweep = [0, 125, 250, 1000].map((ms) => barOf(undefined, 10, ms));
    expect(sweep).toEqual(['██░░░░░░░░', '░██░░░░░░░', '░░██░░░░░░', '░░░░░░░░██']);
  });

  it('fits parts: drops the least important ones, then shrinks the label', () => {
    const parts = [
      { text: 'a long label here', shrink: true },
      { text: ' · keep' },
      { text: ' · drop first', priority: 1 },
      { text: ' · drop later', priority: 2 },
    ];
    expect(fitLine(parts, 100)).toBe('a long label here · keep · drop first · drop later');
    expect(fitLine(parts, 40)).toBe('a long label here · keep · drop later');
    expect(fitLine(parts, 22)).toBe('a long label h… · keep');
  });

  it('tells an ETA only once the plan is under way: a request done, or 5% of known sizes', () => {
    const tally = new RunTally(0);
    tally.onPlan({ requests: 2, outputs: 2, skipped: 0 });
    tally.onProgress(event(1, { bytes: 5, wireBytes: 5, wireTotal: 100 }), 0);
    expect(tally.etaMs(2000)).toBeUndefined(); // 2.5% of the plan
    tally.onProgress(event(1, { bytes: 20, wireBytes: 20, wireTotal: 100 }), 2000);
    expect(tally.etaMs(2000)).toBe(18_000); // 10% in 2 s
    tally.onProgress(event(2, { bytes: 500, wireBytes: 100 }), 2000); // gzip: size unknown
    expect(tally.etaMs(2000)).toBeUndefined();
    expect(tally.etaMs(500)).toBeUndefined();
  });

  it.each([
    [TICKS_URL, 'ESM25 2025-03-05'],
    ['http://h/historical/queryeod.ashx?symbol=AAPL', 'AAPL'],
    ['http://h/extras/exchanges.php', 'exchanges.php'],
    ['out/ESM25-2025-03-05.csv', 'out/ESM25-2025-03-05.csv'],
  ])('a retry of %s is shown as %s', (url, subject) => expect(retrySubject(url)).toBe(subject));

  it('takes URLs out of a retry reason', () => {
    const reason = `request failed: ${TICKS_URL}: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)`;
    expect(withoutUrls(reason)).toBe('request failed: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)');
    expect(withoutUrls('HTTP 503: 503 Service Unavailable')).toBe('HTTP 503: 503 Service Unavailable');
  });

  it('plain and overall lines count requests, decoded bytes, rows, retries, failures and an ETA', () => {
    const tally = new RunTally(0);
    tally.onPlan({ requests: 4, outputs: 4, skipped: 0 });
    tally.onProgress(event(1, { bytes: MiB / 2, wireBytes: MiB / 2, rows: 5 }), 0);
    tally.onProgress(event(1, { bytes: MiB, wireBytes: MiB, rows: 10, done: true, status: 'ok' }), 2000);
    tally.onRetry({ url: TICKS_URL, attempt: 1, delayMs: 0, reason: 'x' }, 2000);
    expect(plainLine(tally, 2000)).toMatch(
      /^mdget: 25% · 1 of 4 requests · 1\.0 MiB · 10 rows · 256\.0 KiB\/s · ETA 6\.0 s · 1 retry$/,
    );
    expect(overallLine(tally, 2000, 200, PLAIN_STYLE)).toMatch(/^█{4}░{12} {2}25% 1 of 4 requests/);
  });
});

describe('summary', () => {
  // `-` stands for standard output, which a result names by having no output file
  const result = (
    output: string,
    status: RequestResult['status'],
    rows = 10,
    bytes = 1000,
  ): RequestResult => ({
    url: 'http://h/q',
    symbol: 'ESM25',
    zone: 'America/Chicago',
    status,
    rows,
    bytes,
    durationMs: 5,
    ...(output === '-' ? {} : { output }),
  });
  const batch = (results: RequestResult[]): BatchResult => ({
    results,
    stdoutClosed: false,
    counts: { sent: 0, retries: 0, peakInFlight: 0, continuations: 0, probes: 0, probeHits: 0 },
  });
  const tally = new RunTally(0);

  it.each([
    [
      batch([result('a.csv', 'ok'), result('b.csv', 'empty', 0), result('c.csv', 'failed', 0, 30)]),
      'mdget: 2 files written, 1 failed · 10 rows · 2.0 KiB in 3.4 s',
    ],
    [
      batch([result('a.csv', 'ok'), result('a.csv', 'ok'), result('b.csv', 'skipped', 0, 0)]),
      'mdget: 1 file written, 1 skipped · 20 rows · 2.0 KiB in 3.4 s',
    ],
    [batch([result('-', 'ok', 1234)]), 'mdget: 1,234 rows to stdout · 1000 B in 3.4 s'],
    [{ written: 212, output: 'x.csv', stdoutClosed: false }, 'mdget: 1 file written · 212 rows in 3.4 s'],
  ])('%#', (value, line) => expect(formatSummary(summaryOf(value, tally, 3400), plain)).toBe(line));

  it('names bytes only when progress told them', () => {
    const heard = new RunTally(0);
    heard.onProgress(event(0, { bytes: 2048, wireBytes: 300, done: true }), 0);
    expect(formatSummary(summaryOf({ written: 3, stdoutClosed: false }, heard, 200), plain)).toBe(
      'mdget: 3 rows to stdout · 2.0 KiB in 0.2 s',
    );
    expect(formatSummary(summaryOf(undefined, tally, 200), plain)).toBe(
      'mdget: 0 files written · 0 rows in 0.2 s',
    );
  });

  it('names the failed outputs no progress event told of, once each, with the reason', () => {
    const refused = {
      ...result('b.csv', 'failed', 0, 0),
      error: { code: 'MDGET_SERVICE' as const, message: 'service refused (HTTP 404)' },
    };
    const value = batch([result('a.csv', 'failed'), refused, { ...refused }, result('c.csv', 'ok')]);
    expect(untoldFailures(value, new Set(['a.csv']))).toEqual([
      { output: 'b.csv', line: 'failed: b.csv: service refused (HTTP 404)' },
    ]);
    expect(untoldFailures({ written: 1, output: 'x' }, new Set())).toEqual([]);
    const failure = new MdgetError(
      'MDGET_PARTIAL',
      '2 of 3 outputs failed (first: service refused (HTTP 404))',
    );
    expect(untoldFailures({ ...value, failure }, new Set(['a.csv']))).toEqual([]);
  });

  it('counts retries', () => {
    const retried = new RunTally(0);
    retried.onRetry({ url: TICKS_URL, attempt: 1, delayMs: 10, reason: 'x' }, 0);
    retried.onRetry({ url: TICKS_URL, attempt: 2, delayMs: 10, reason: 'x' }, 0);
    expect(formatSummary(summaryOf(batch([result('a', 'ok')]), retried, 65_000), plain)).toBe(
      'mdget: 1 file written · 10 rows · 1000 B in 1m05s · 2 retries',
    );
  });
});
