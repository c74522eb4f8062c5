import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NO_COLORS } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { dataFilesIn } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** Runs main in this process with stdout on a terminal; returns its status and stderr. */
async function onTerminal(argv: string[], env: Record<string, string>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (chunk) => chunks.push(chunk));
  let errors = '';
  stderr.on('data', (chunk) => (errors += chunk));
  const code = await main(argv, {
    stdout,
    stderr,
    stdin: new PassThrough(),
    stdoutIsTTY: true,
    stderrIsTTY: false,
    env,
    cwd: tempDir(),
    color: NO_COLORS,
  });
  return { code, stdout: Buffer.concat(chunks), stderr: errors };
}

describe('what a careful user trips over', () => {
  it('gzip output to a terminal is refused before any request, pointing at -o or a pipe', async () => {
    await withEmulator({}, async (emu) => {
      const run = await onTerminal(['eod', 'AAPL', '--start', '2025-03-10', '--gzip'], emu.env);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'mdget: compressed output would go to the terminal: write it to a file with -o, or pipe it (| gunzip)\n',
      );
      expect(run.stdout.length).toBe(0);
      expect(emu.requests).toHaveLength(0);
      // a file, or stdout that is no terminal, takes it
      const piped = await runMain(['eod', 'AAPL', '--start', '2025-03-10', '--gzip'], { env: emu.env });
      expect([piped.code, piped.stdoutBytes.subarray(0, 2).toString('hex')]).toEqual([0, '1f8b']);
    });
  });

  it('--shard into one file warns once, naming the placeholders that separate the shares', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const days = ['ticks', 'ESM25', '--start', '2025-03-10', '--end', '2025-03-14'];
      const one = await runMain([...days, '--shard', '1/2', '-o', 'one.csv'], { env: emu.env, cwd: dir });
      expect(one.code).toBe(0);
      expect(one.stderr).toBe(
        'mdget: warning: --shard 1/2: one.csv gets rows of other shares too, which their runs write under the same name; use a template with {symbol} and {date} so each share writes files of its own\n',
      );
      const files = await runMain([...days, '--shard', '1/2', '-o', 'd-{date}.csv'], {
        env: emu.env,
        cwd: dir,
      });
      expect([files.code, files.stderr]).toEqual([0, '']);
      const stdout = await runMain([...days, '--shard', '2/2'], { env: emu.env });
      expect(stdout.stderr).toMatch(
        /^mdget: warning: --shard 2\/2: standard output gets rows of other shares/,
      );
    });
  });

  it('a failed run takes back the directories it made and left empty, and keeps others', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const run = await runMain(['ticks', 'NOPE', '--start', '2025-03-13', '-o', 'o/deep/{symbol}.csv'], {
        env: emu.env,
        cwd: dir,
      });
      expect(run.code).toBe(4);
      expect(readdirSync(dir)).toEqual([]);
      const partial = await runMain(
        ['ticks', 'ESM25', 'NOPE', '--start', '2025-03-13', '-o', 'p/{symbol}.csv', '-q'],
        { env: emu.env, cwd: dir },
      );
      expect(partial.code).toBe(7);
      expect(dataFilesIn(join(dir, 'p'))).toEqual(['ESM25.csv']);
      expect(existsSync(join(dir, 'o'))).toBe(false);
    });
  });
});
