import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../src/emulator/index.js';
import { CANARY_ACCOUNT, dataFilesIn, NO_PROBES } from '../helpers/cli-env.js';
import { BIN, CANARY, nodePath, runCli, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const run = promisify(execFile);

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Seven days of ESM25 ticks, two at a time, into one file per day. The first request to arrive is slow,
 * then fails with an in-band error; the second gets a 503 with Retry-After 2 and is retried; the next one
 * (that retry, or the 7th's request) is refused with a 404 before any body; Saturday 2025-03-08 has no
 * records (a note); the others are large enough to be drawn while they come in.
 */
const faults = (): Fault[] => [
  { kind: 'slow', delayMs: 1500, path: 'queryticks.ashx', times: 1 },
  { kind: 'inBandError', message: 'Error: not entitled to ESM25', path: 'queryticks.ashx', times: 1 },
  { kind: 'status', status: 503, path: 'queryticks.ashx', times: 1, retryAfter: 2 },
  { kind: 'status', status: 404, path: 'queryticks.ashx', times: 1 },
];
const ARGS = [
  'ticks',
  'ESM25',
  '--start',
  '2025-03-05',
  '--end',
  '2025-03-12',
  '-o',
  'out/{symbol}-{date}.csv',
  '--concurrency',
  '2',
];
// Fresh fault objects for each emulator: the emulator counts a fault's uses by the object.
const emulator = () => ({ ...CANARY_ACCOUNT, ticksPerDay: 150_000, faults: faults() });

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * Runs the built CLI in a tmux pane of `columns` × `rows` (a real pseudo-terminal: stdout and stderr are
 * ttys) and captures the pane every 100 ms until the CLI exits; returns the distinct screens in order and
 * the exit code. A server of its own (-L) and no configuration (-f /dev/null): the user's tmux is left alone.
 */
async function inTmux(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  size = { columns: 100, rows: 30 },
): Promise<{ screens: string[]; code: number }> {
  const server = `mdget-test-${process.pid}-${Date.now()}`;
  const tmux = (...rest: string[]) => run('tmux', ['-L', server, '-f', '/dev/null', ...rest]);
  const script = join(cwd, 'run.sh');
  const exports = Object.entries({ ...env, PATH: nodePath() }).map(
    ([key, value]) => `export ${key}=${shellQuote(value)}`,
  );
  writeFileSync(
    script,
    [
      ...exports,
      `cd ${shellQuote(cwd)}`,
      `${[BIN, ...args].map(shellQuote).join(' ')}`,
      'echo $? > exit-code',
      'sleep 600',
      '',
    ].join('\n'),
  );
  const screens: string[] = [];
  const capture = async () => {
    const { stdout } = await tmux('capture-pane', '-p', '-t', 'run');
    const screen = stdout.replace(/\s+$/, '');
    if (screen !== screens.at(-1)) screens.push(screen);
  };
  await tmux(
    'new-session',
    '-d',
    '-s',
    'run',
    '-x',
    String(size.columns),
    '-y',
    String(size.rows),
    `sh ${shellQuote(script)}`,
  );
  try {
    const deadline = Date.now() + 45_000;
    while (!existsSync(join(cwd, 'exit-code'))) {
      if (Date.now() > deadline) throw new Error(`no exit within 45 s; last screen:\n${screens.at(-1)}`);
      await capture();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await capture();
    return { screens, code: Number(readFileSync(join(cwd, 'exit-code'), 'utf8')) };
  } finally {
    await tmux('kill-server').catch(() => {});
  }
}

const BAR_LINE = /[█░]{16}/;

describe('progress display', () => {
  it.skipIf(!hasTmux)(
    'in a pseudo-terminal: notes stay, a retry shows while it waits, a failure is named, no bar is left, one summary line, exit 7',
    async () => {
      await withEmulator(emulator(), async (emu) => {
        const cwd = tempDir();
        const { screens, code } = await inTmux(ARGS, { ...emu.env, ...NO_PROBES }, cwd);
        if (process.env.MDGET_PROGRESS_SCREENS)
          writeFileSync(process.env.MDGET_PROGRESS_SCREENS, screens.join('\n\n=====\n\n'));
        const final = screens.at(-1)!;
        const during = screens.slice(0, -1);

        expect(code, final).toBe(7);
        // while it ran: the overall line with the plan's count, and lines of downloads coming in
        expect(during.some((s) => /^[█░]{16} +\d+% \d of 7 requests · /m.test(s))).toBe(true);
        expect(during.some((s) => /^ {2}ticks ESM25 2025-03-\d\d +[█░]{16} [\d.]+ [KM]iB/m.test(s))).toBe(
          true,
        );
        // the retry, as a status line while it waits (no -v), counted on the overall line
        expect(
          during.some((s) =>
            /^↻ retry 1 of 3 in [\d.]+ s: ESM25 2025-03-0[56]: HTTP 503: 503 Service Unavailable$/m.test(s),
          ),
        ).toBe(true);
        expect(during.some((s) => /· 1 retry\b/.test(s))).toBe(true);
        // a note printed while bars were drawn is visible on a later screen that still has bars
        const note = 'mdget: no records for ticks ESM25 2025-03-08';
        expect(during.some((s) => s.includes(note) && BAR_LINE.test(s))).toBe(true);

        // the end: the failure and the note kept, in the order they came; the failure told by no
        // progress event (refused before its body); the summary; the error; no bar left
        const lines = final.split('\n');
        expect(lines.filter((l) => l.startsWith('mdget: '))).toEqual([
          expect.stringMatching(
            /^mdget: failed: ticks ESM25 2025-03-0[56] \(out\/ESM25-2025-03-0[56]\.csv\)$/,
          ),
          note,
          // the 503's retry is the 5th's or the 6th's, whichever arrived second; or the 7th's request
          expect.stringMatching(
            /^mdget: failed: out\/ESM25-2025-03-0[5-7]\.csv: service refused \(HTTP 404\) http/,
          ),
          expect.stringMatching(
            /^mdget: 5 files written, 2 failed · [\d,]+ rows · [\d.]+ MiB in [\d.]+ s · 1 retry$/,
          ),
          expect.stringMatching(/^mdget: 2 of 7 outputs failed \(first: service error: Error: not entitled/),
        ]);
        expect(final).not.toMatch(/[█░↻]|of 7 requests/);
        expect(final).not.toContain(CANARY);
        expect(dataFilesIn(join(cwd, 'out'))).toHaveLength(5);
      });
    },
  );

  it('--progress with stderr to a file: plain lines every few seconds, no escapes, no blank lines', async () => {
    await withEmulator(emulator(), async (emu) => {
      const cwd = tempDir();
      const result = await runCli([...ARGS, '--progress'], {
        env: { ...emu.env, ...NO_PROBES },
        cwd,
        timeoutMs: 45_000,
      });
      expect(result.code, result.stderr).toBe(7);
      expect(result.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f]/); // no escape, no carriage return
      const lines = result.stderr.split('\n');
      expect(lines.at(-1)).toBe('');
      expect(lines.slice(0, -1).every((l) => l.trim() !== '')).toBe(true);
      expect(lines).toContain('mdget: retry 1 in 2000 ms: HTTP 503: 503 Service Unavailable');
      expect(lines).toContain('mdget: no records for ticks ESM25 2025-03-08');
      expect(lines.some((l) => /^mdget: failed: ticks ESM25 2025-03-0[56] /.test(l))).toBe(true);
      expect(lines.some((l) => /^mdget: \d+% · \d of 7 requests · [\d.]+ [KM]?i?B · /.test(l))).toBe(true);
      // as in the tmux test: the 404 meets the 503's retry (the 5th's or the 6th's) or the 7th's request,
      // whichever arrives first; on a loaded machine the slow first answer can outlast the retry's wait
      expect(lines.at(-4)).toMatch(
        /^mdget: failed: out\/ESM25-2025-03-0[5-7]\.csv: service refused \(HTTP 404\)/,
      );
      expect(lines.at(-3)).toMatch(/^mdget: 5 files written, 2 failed · [\d,]+ rows · .* · 1 retry$/);
      expect(lines.at(-2)).toMatch(/^mdget: 2 of 7 outputs failed/);
      expect(result.stderr).not.toContain(CANARY);
    });
  });
});
