import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NO_PROBES } from '../helpers/cli-env.js';
import { readParquet } from '../helpers/parquet.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { canMount, mounted } from '../helpers/tmpfs.js';
import { withEmulator } from '../helpers/with-emulator.js';

// --update extends only a file it can prove is its own and made the same way (docs/cli.md#outputs);
// each symbol of a file resumes at its own last rows, so an update equals one download.
const DAYS = ['--start', '2025-03-10', '--end', '2025-03-11'];
const LATER = ['--start', '2025-03-10', '--end', '2025-03-12', '--update'];
const memoryOf = (file: string) => join(file, '..', `.${file.split('/').pop()}.mdget.json`);

/** The memory's size and SHA-256 are the file's on disk: hashed as written, or read back after an update. */
function expectMemoryOfFile(file: string): void {
  const bytes = readFileSync(file);
  const memory = JSON.parse(readFileSync(memoryOf(file), 'utf8')) as { bytes: number; sha256: string };
  expect([memory.bytes, memory.sha256]).toEqual([
    bytes.length,
    createHash('sha256').update(bytes).digest('hex'),
  ]);
}

describe('--update refuses a file made otherwise: exit 6, no request, the file as it was', () => {
  const CASES = [
    {
      name: 'written with --utc, updated without',
      first: ['AAPL', '--utc'],
      update: ['AAPL'],
      says: /was written with --utc: add it, or pass --force/,
    },
    {
      name: 'written with --interval 5, updated without',
      first: ['AAPL', '--interval', '5'],
      update: ['AAPL'],
      says: /was written with --interval 5: add it/,
    },
    {
      name: 'written for AAPL, updated for MSFT',
      first: ['AAPL'],
      update: ['MSFT'],
      says: /holds AAPL, this run asks for MSFT/,
    },
    {
      name: 'written with --columns time,close, updated without',
      first: ['AAPL', '--columns', 'time,close'],
      update: ['AAPL'],
      says: /was written with --columns time,close: add it/,
    },
  ];
  for (const { name, first, update, says } of CASES) {
    it(name, async () => {
      await withEmulator({}, async (emu) => {
        const file = join(tempDir(), 'u.csv');
        const made = await runMain(['minutes', ...first, ...DAYS, '-o', file], { env: emu.env });
        expect(made.code).toBe(0);
        const before = [readFileSync(file), readFileSync(memoryOf(file))];
        const sent = emu.requests.length;
        const run = await runMain(['minutes', ...update, ...LATER, '-o', file], { env: emu.env });
        expect(run.code).toBe(6);
        expect(run.stderr).toMatch(says);
        expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(emu.requests.length).toBe(sent);
        expect([readFileSync(file), readFileSync(memoryOf(file))]).toEqual(before);
      });
    });
  }

  it('a file changed since, or without its memory, is refused; --force starts it over', async () => {
    await withEmulator({}, async (emu) => {
      const file = join(tempDir(), 'u.csv');
      expect((await runMain(['minutes', 'AAPL', ...DAYS, '-o', file], { env: emu.env })).code).toBe(0);
      const text = readFileSync(file, 'latin1');
      const flipped = text.replace(
        /,(\d)(\d*)\n$/,
        (_, d: string, rest: string) => `,${(Number(d) + 1) % 10}${rest}\n`,
      );
      expect(flipped).not.toBe(text);
      writeFileSync(file, flipped, 'latin1');
      const sent = emu.requests.length;
      const changed = await runMain(['minutes', 'AAPL', ...LATER, '-o', file], { env: emu.env });
      expect([changed.code, emu.requests.length]).toEqual([6, sent]);
      expect(changed.stderr).toMatch(/changed since mdget wrote it .*pass --force to download it whole/);
      expect(readFileSync(file, 'latin1')).toBe(flipped);
      rmSync(memoryOf(file));
      const unknown = await runMain(['minutes', 'AAPL', ...LATER, '-o', file], { env: emu.env });
      expect([unknown.code, emu.requests.length]).toEqual([6, sent]);
      expect(unknown.stderr).toMatch(/has no record of how mdget made it .*pass --force/);
      const force = [
        'minutes',
        'AAPL',
        '--start',
        '2025-03-10',
        '--end',
        '2025-03-12',
        '--force',
        '-o',
        file,
      ];
      expect((await runMain(force, { env: emu.env })).code).toBe(0);
      expect((await runMain(['minutes', 'AAPL', ...LATER, '-o', file], { env: emu.env })).code).toBe(0);
    });
  });
});

describe('--update of a file of several symbols equals one download of the whole range', () => {
  const FIRST = ['minutes', 'AAPL', 'MSFT', '--start', '2025-03-10', '--end', '2025-03-12'];
  const WHOLE = ['minutes', 'AAPL', 'MSFT', '--start', '2025-03-10', '--end', '2025-03-15'];
  for (const ext of ['csv', 'csv.gz', 'ndjson'] as const) {
    it(`${ext}: byte for byte`, async () => {
      await withEmulator({}, async (emu) => {
        const dir = tempDir();
        const [file, fresh] = [join(dir, `u.${ext}`), join(dir, `f.${ext}`)];
        expect((await runMain([...FIRST, '-o', file], { env: emu.env })).code).toBe(0);
        expectMemoryOfFile(file);
        const update = await runMain([...WHOLE, '--update', '-o', file], { env: emu.env });
        expect([update.code, update.stderr]).toEqual([0, '']);
        expectMemoryOfFile(file);
        expect((await runMain([...WHOLE, '-o', fresh], { env: emu.env })).code).toBe(0);
        expectMemoryOfFile(fresh);
        const decoded = (path: string) =>
          ext.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path);
        expect(decoded(file).equals(decoded(fresh))).toBe(true);
        if (ext === 'csv') expect(decoded(file).toString().trimEnd().split('\n')).toHaveLength(3901);
        // and a second update from there finds each symbol up to its own last rows again
        expect((await runMain([...WHOLE, '--update', '-o', file], { env: emu.env })).code).toBe(0);
        expect(decoded(file).equals(decoded(fresh))).toBe(true);
      });
    });
  }

  it('parquet: row for row', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const [file, fresh] = [join(dir, 'u.parquet'), join(dir, 'f.parquet')];
      expect((await runMain([...FIRST, '-o', file], { env: emu.env })).code).toBe(0);
      expectMemoryOfFile(file);
      expect((await runMain([...WHOLE, '--update', '-o', file], { env: emu.env })).code).toBe(0);
      expectMemoryOfFile(file);
      expect((await runMain([...WHOLE, '-o', fresh], { env: emu.env })).code).toBe(0);
      const [updated, whole] = [await readParquet(file), await readParquet(fresh)];
      expect(updated.rows).toHaveLength(3900);
      expect(updated.rows).toEqual(whole.rows);
    });
  });

  it('--dry-run shows each symbol resuming at its own last rows, and sends nothing', async () => {
    await withEmulator({}, async (emu) => {
      const file = join(tempDir(), 'u.csv');
      expect((await runMain([...FIRST, '-o', file], { env: emu.env })).code).toBe(0);
      const sent = emu.requests.length;
      const run = await runMain([...WHOLE, '--update', '--dry-run', '-o', file], { env: emu.env });
      expect(run.code).toBe(0);
      expect(emu.requests.length).toBe(sent);
      const urls = run.stdout.trim().split('\n');
      expect(urls.map((url) => new URL(url).searchParams.get('symbol'))).toEqual(['AAPL', 'MSFT']);
      for (const url of urls) expect(new URL(url).searchParams.get('start')).toBe('20250311155900');
    });
  });

  it('the library: download(file, { update: true }) resumes each symbol, and refuses another recipe', async () => {
    await withEmulator({}, async (emu) => {
      const { createClient } = await import('../../src/index.js');
      const client = createClient({ username: 'demo', password: 'demo', historicalUrl: emu.urls.historical });
      const dir = tempDir();
      const [file, fresh] = [join(dir, 'u.csv'), join(dir, 'f.csv')];
      const query = { symbols: ['AAPL', 'MSFT'], start: '2025-03-10' };
      try {
        await client.minutes({ ...query, end: '2025-03-12' }).download(file);
        await client.minutes({ ...query, end: '2025-03-15' }).download(file, { update: true });
        await client.minutes({ ...query, end: '2025-03-15' }).download(fresh);
        expect(readFileSync(file).equals(readFileSync(fresh))).toBe(true);
        const sent = emu.requests.length;
        await expect(
          client.minutes({ ...query, end: '2025-03-16', interval: 5 }).download(file, { update: true }),
        ).rejects.toMatchObject({ code: 'MDGET_IO', message: expect.stringMatching(/without interval/) });
        expect(emu.requests.length).toBe(sent);
      } finally {
        await client.close();
      }
    });
  });
});

describe('--update on a disk that fills while the kept rows are copied', () => {
  it.skipIf(!canMount)(
    'exit 6 in one line; the file and its memory as they were, no temporary file',
    async () => {
      const dir = tempDir();
      expect(mounted(dir, '8m')).toBe(true);
      try {
        await withEmulator({ ticksPerDay: 100_000 }, async (emu) => {
          const file = join(dir, 't.csv');
          const first = ['ticks', 'ESM25', '--start', '2025-03-10', '--end', '2025-03-11', '-o', file];
          expect((await runMain(first, { env: { ...emu.env, ...NO_PROBES } })).code).toBe(0);
          const before = [readFileSync(file), readFileSync(memoryOf(file))];
          // room for less than the kept rows: the copy's first large write finds the disk full
          const { bavail, bsize } = statfsSync(dir);
          writeFileSync(join(dir, 'filler'), Buffer.alloc(Number(bavail) * bsize - 256 * 1024));
          const update = ['ticks', 'ESM25', '--start', '2025-03-10', '--end', '2025-03-12', '--update'];
          const run = await runMain([...update, '-o', file], { env: { ...emu.env, ...NO_PROBES } });
          expect(run.code).toBe(6);
          expect(run.stderr).toMatch(/^mdget: .*disk full\n$/);
          expect([readFileSync(file), readFileSync(memoryOf(file))]).toEqual(before);
          expect(readdirSync(dir).sort()).toEqual(['.t.csv.mdget.json', 'filler', 't.csv']);
        });
      } finally {
        execFileSync('umount', [dir]);
      }
    },
  );
});
