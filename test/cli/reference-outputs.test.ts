import { execFile, execFileSync, spawn } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT, expectNoCanary, requestsTo } from '../helpers/cli-env.js';
import { BIN, nodePath, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** For the reference commands: -o on a special file is written directly, as for downloads. */
// never execFileSync with the emulator in this process: it could not answer
const run = promisify(execFile);

/** Runs `mdget args -o <a new FIFO>` with a reader on the FIFO; resolves with the run and what was read. */
async function throughFifo(args: string[], env: Record<string, string>, dir: string, name: string) {
  const fifo = join(dir, name);
  execFileSync('mkfifo', [fifo]);
  const reader = spawn('cat', [fifo]);
  const read: Buffer[] = [];
  reader.stdout.on('data', (c: Buffer) => read.push(c));
  const readerDone = new Promise((resolve) => reader.on('close', resolve));
  const result = await runMain([...args, '-o', fifo], { env, cwd: dir });
  await readerDone;
  expect(lstatSync(fifo).isFIFO()).toBe(true);
  return { ...result, read: Buffer.concat(read).toString() };
}

describe.runIf(process.platform === 'linux')('reference -o on special files', () => {
  it.each(
    [
      ['exchanges', '--format', 'csv'],
      ['exchanges', '--format', 'xml'],
      ['instruments', 'CME', '--format', 'csv'],
      ['instruments', 'CME', '--format', 'ndjson'],
      ['instruments', 'CME', '--format', 'json'],
    ].map((args) => [args.join(' '), args] as const),
  )('mdget %s: a FIFO gets the bytes stdout gets; /dev/null takes them', async (_name, args) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const plain = await runMain(args, { env: emu.env, cwd: dir });
      expect(plain.code).toBe(0);
      const fifo = await throughFifo(args, emu.env, dir, 'pipe');
      expect([fifo.code, fifo.stdout, fifo.read]).toEqual([0, '', plain.stdout]);
      const devNull = await runMain([...args, '-o', '/dev/null'], { env: emu.env, cwd: dir });
      expect([devNull.code, devNull.stdout, devNull.stderr]).toEqual([0, '', '']);
      expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
      for (const run of [plain, fifo, devNull]) expectNoCanary(run);
      expect(readdirSync(dir)).toEqual(['pipe']);
    });
  });

  it('/dev/stdout, through a pipe and redirected to a file, is written through and stays a link', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const args = ['instruments', 'CME', '--format', 'csv'];
      const plain = await runMain(args, { env: emu.env, cwd: dir });
      const env = { PATH: nodePath(), ...emu.env };
      const mdget = `${BIN} ${args.join(' ')} -o /dev/stdout`;
      // runCli's stdout is a socket, which /dev/stdout cannot open: a shell gives it a pipe or a file
      await run('bash', ['-c', `set -o pipefail; ${mdget} | cat > piped.csv; ${mdget} > out.csv`], {
        env,
        cwd: dir,
      });
      expect(readFileSync(join(dir, 'piped.csv'), 'utf8')).toBe(plain.stdout);
      expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe(plain.stdout);
      expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(['out.csv', 'piped.csv']);
    });
  });

  it('sqlite to /dev/null or a FIFO is a usage error (exit 2) before any request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      execFileSync('mkfifo', [join(dir, 'pipe')]);
      for (const target of ['/dev/null', join(dir, 'pipe')]) {
        const refused = await runMain(['instruments', 'CME', '--format', 'sqlite', '-o', target], {
          env: emu.env,
          cwd: dir,
        });
        expect([refused.code, refused.stdout]).toEqual([2, '']);
        expect(refused.stderr).toBe(
          `mdget: -o ${target}: --format sqlite needs a regular file (a database is built beside it and renamed), not a device, FIFO or stream\n`,
        );
      }
      expect(requestsTo(emu, 'exchanges.php')).toEqual([]);
      expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
      expect(lstatSync(join(dir, 'pipe')).isFIFO()).toBe(true);
      expect(readdirSync(dir)).toEqual(['pipe']);
    });
  });

  it.each([
    [['exchanges', '-o', ''], "-o '': give a file name"],
    [['exchanges', '-o', 'lists/', '--dry-run'], '-o lists/: names a directory'],
    [['instruments', 'CME', '-o', 'x/'], '-o x/: names a directory'],
    [['instruments', 'CME', '--format', 'sqlite', '-o', '', '--dry-run'], "-o '': give a file name"],
  ])('%j: a malformed -o is a usage error before any request, in a dry run too', async (args, message) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const refused = await runMain(args, { env: emu.env, cwd: dir });
      expect([refused.code, refused.stdout]).toEqual([2, '']);
      expect(refused.stderr.split('\n')).toEqual([expect.stringContaining(`mdget: ${message}`), '']);
      expect(emu.requests).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);
    });
  });
});
