import { execFile, execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT } from '../helpers/cli-env.js';
import { BIN, nodePath, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** -o behaves like a file name should, and every output error is found before any request. */
// never execFileSync with the emulator in this process: it could not answer
const run = promisify(execFile);
const TICKS = ['ticks', 'AAPL', '--start', '2025-03-13', '-q'];

describe('-o on special files: written directly, never replaced, never refused as existing', () => {
  it.runIf(process.platform === 'linux')('/dev/null, a FIFO, /dev/stdout and >(…)', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const env = { PATH: nodePath(), ...emu.env };
      const plain = await runMain(TICKS, { env: emu.env, cwd: dir });
      expect((await runMain([...TICKS, '-o', '/dev/null'], { env: emu.env, cwd: dir })).code).toBe(0);
      expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
      // a FIFO with a reader: the bytes arrive, the FIFO stays a FIFO
      execFileSync('mkfifo', [join(dir, 'pipe')]);
      const reader = spawn('cat', [join(dir, 'pipe')]);
      const read: Buffer[] = [];
      reader.stdout.on('data', (c: Buffer) => read.push(c));
      const readerDone = new Promise((resolve) => reader.on('close', resolve));
      const fifo = await runMain([...TICKS, '-o', join(dir, 'pipe')], { env: emu.env, cwd: dir });
      await readerDone;
      expect([fifo.code, Buffer.concat(read).toString()]).toEqual([0, plain.stdout]);
      expect(lstatSync(join(dir, 'pipe')).isFIFO()).toBe(true);
      // /dev/stdout redirected to a file, and >(…): written through, /dev/stdout untouched
      const out = join(dir, 'out.csv');
      await run('bash', ['-c', `${BIN} ${TICKS.join(' ')} -o /dev/stdout > ${out}`], { env });
      expect(readFileSync(out, 'utf8')).toBe(plain.stdout);
      expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
      const counted = await run(
        'bash',
        ['-c', `${BIN} ${TICKS.join(' ')} -o >(wc -l > ${dir}/n); sleep 0.3; cat ${dir}/n`],
        { env },
      );
      expect(Number(counted.stdout.trim())).toBe(plain.stdout.split('\n').length - 1);
      expect(readdirSync(dir).filter((name) => name.includes('.part'))).toEqual([]);
    });
  });

  it('a link to a file: the file it points to is replaced, the link stays', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'real.csv'), 'old\n');
      symlinkSync('real.csv', join(dir, 'link.csv'));
      const linked = await runMain([...TICKS, '-o', 'link.csv', '--force'], { env: emu.env, cwd: dir });
      expect(linked.code).toBe(0);
      expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
      expect(readFileSync(join(dir, 'real.csv'), 'utf8')).toMatch(/^symbol,time,/);
    });
  });
});

describe('output errors are found before any request, with one line naming -o', () => {
  it.each([
    [[...TICKS, '-o', ''], 2, /^mdget: -o '': give a file name/],
    [[...TICKS, '-o', 'newdir/'], 2, /^mdget: -o newdir\/: names a directory/],
    [[...TICKS, '-o', 'existing', '--force'], 6, /^mdget: -o existing: is a directory/],
    [[...TICKS, '-o', 'x-{sym}.csv'], 2, /^mdget: -o x-\{sym\}\.csv: unknown placeholder \{sym\}/],
    [
      ['eod', 'AAPL', '--start', '2025-03-10', '-o', 'e-{end}.csv'],
      2,
      /^mdget: -o e-\{end\}\.csv: \{end\} has no value .*give --end/,
    ],
    [
      ['ticks', 'AAPL', 'MSFT', '--start', '2025-03-13', '-o', 'out/{symbol}/../../x.csv'],
      2,
      /would both write x\.csv/,
    ],
    [
      ['ticks', 'ES*1', 'ES_1', '--start', '2025-03-13', '-o', '{symbol}.csv'],
      2,
      /would both write ES_1\.csv/,
    ],
    [
      [...TICKS, '-o', 'blocked/x.csv'],
      6,
      /^mdget: -o blocked\/x\.csv: cannot create its directory: a file is in the way/,
    ],
    // a parent that cannot hold a directory: Node's recursive mkdir never returned there
    ...(process.platform === 'linux'
      ? [
          [
            [...TICKS, '-o', '/proc/mdget/x.csv'],
            6,
            /^mdget: -o \/proc\/mdget\/x\.csv: cannot create its directory: no directory can be made there/,
          ] as [string[], number, RegExp],
          [
            [...TICKS, '-o', 'x.csv', '--report', '/proc/mdget/r.json'],
            6,
            /^mdget: --report \/proc\/mdget\/r\.json: cannot create its directory: no directory can be made there/,
          ] as [string[], number, RegExp],
        ]
      : []),
  ])('%j → exit %i', async (args, code, message) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      mkdirSync(join(dir, 'existing'));
      writeFileSync(join(dir, 'blocked'), 'a file where a directory should be\n');
      const before = readdirSync(dir).sort();
      const refused = await runMain(args, { env: emu.env, cwd: dir });
      expect([refused.code, refused.stderr.split('\n').length]).toEqual([code, 2]);
      expect(refused.stderr).toMatch(message);
      expect(refused.stderr).not.toMatch(/\bE[A-Z]{3,}\b/); // what it means, never a bare errno
      expect(emu.requests).toHaveLength(0);
      expect(readdirSync(dir).sort()).toEqual(before);
    });
  });
});

describe('--dry-run refuses the output errors the run refuses (exit 2), not what the file system holds', () => {
  it.each([
    [[...TICKS, '-o', ''], /^mdget: -o '': give a file name/],
    [[...TICKS, '-o', 'newdir/'], /^mdget: -o newdir\/: names a directory/],
    [[...TICKS, '-o', 'x/{sym}.csv'], /^mdget: -o x\/\{sym\}\.csv: unknown placeholder \{sym\}/],
    [
      ['eod', 'AAPL', '--start', '2025-03-10', '-o', 'e-{end}.csv'],
      /^mdget: -o e-\{end\}\.csv: \{end\} has no value .*give --end/,
    ],
    [
      ['ticks', 'ES*1', 'ES_1', '--start', '2025-03-13', '-o', '{symbol}.csv'],
      /^mdget: -o \{symbol\}\.csv: .* would both write ES_1\.csv/,
    ],
  ])('%j --dry-run → exit 2, no request', async (args, message) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const refused = await runMain([...args, '--dry-run'], { env: emu.env, cwd: dir });
      expect([refused.code, refused.stdout, refused.stderr.split('\n').length]).toEqual([2, '', 2]);
      expect(refused.stderr).toMatch(message);
      expect(emu.requests).toHaveLength(0);
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  it('a path error is a usage error before the configuration is read: exit 2 without any service set', async () => {
    const refused = await runMain([...TICKS, '-o', 'x/{sym}.csv', '--dry-run'], { env: {} });
    expect([refused.code, refused.stderr.split('\n').length]).toEqual([2, 2]);
    expect(refused.stderr).toMatch(/^mdget: -o x\/\{sym\}\.csv: unknown placeholder/);
  });

  it('an existing file or directory does not fail a dry run: nothing is written, the run decides', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'AAPL.csv'), 'old\n');
      mkdirSync(join(dir, 'existing'));
      for (const output of ['AAPL.csv', '{symbol}.csv', 'existing']) {
        const dry = await runMain([...TICKS, '-o', output, '--dry-run'], { env: emu.env, cwd: dir });
        expect([dry.code, dry.stdout.split('\n').length]).toEqual([0, 2]);
      }
      expect(emu.requests).toHaveLength(0);
      expect(readFileSync(join(dir, 'AAPL.csv'), 'utf8')).toBe('old\n');
      expect((await runMain([...TICKS, '-o', 'AAPL.csv'], { env: emu.env, cwd: dir })).code).toBe(6);
    });
  });
});
