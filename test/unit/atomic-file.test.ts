import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atomicFileSink, BackgroundSync, writeTo } from '../../src/core/sink/atomic-file.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('atomicFileSink: flushing along the way', () => {
  it('a file larger than several background syncs is whole under its final name, with no temporary left', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const target = join(dir, 'day.csv');
    const sink = await atomicFileSink(target);
    for (let i = 0; i < 40; i++) await writeTo(sink.stream, Buffer.alloc(1024 * 1024, i));
    await sink.commit();
    const written = readFileSync(target);
    expect(written.length).toBe(40 * 1024 * 1024);
    expect([written[0], written[20 * 1024 * 1024], written.at(-1)]).toEqual([0, 20, 39]);
    expect(readdirSync(dir)).toEqual(['day.csv']);
  });

  it.skipIf(process.platform !== 'linux')(
    'a failed background sync is kept and reported when the output settles it',
    async () => {
      // fdatasync on a character device fails (EINVAL): a stand-in for a disk error, which the next fsync on
      // Linux may no longer report.
      const fd = openSync('/dev/null', 'r');
      try {
        const quiet = new BackgroundSync(fd);
        quiet.wrote(4 * 1024 * 1024);
        await expect(quiet.settle()).resolves.toBeUndefined(); // under the interval: nothing started
        const late = new BackgroundSync(fd);
        await late.settle();
        late.wrote(16 * 1024 * 1024); // after settle (an abort closing the descriptor): nothing starts
        await expect(late.settle()).resolves.toBeUndefined();
        const failing = new BackgroundSync(fd);
        failing.wrote(4 * 1024 * 1024);
        failing.wrote(4 * 1024 * 1024);
        await expect(failing.settle()).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
      } finally {
        closeSync(fd);
      }
    },
  );
});

/** Bytes that differ at every offset (a block written twice or out of order shows). */
function pattern(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** The descriptors this process holds on files whose name contains `part` (Linux; 0 elsewhere). */
function descriptorsOn(part: string): number {
  if (process.platform !== 'linux') return 0;
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).includes(part)) count++;
    } catch {
      // a descriptor closed meanwhile
    }
  }
  return count;
}

describe('atomicFileSink: chunks of any size', () => {
  it('odd chunks are written whole, byte for byte, in order', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const target = join(dir, 'day.ndjson');
    const sink = await atomicFileSink(target);
    const sizes = [1, 4095, 65_537, 1_000_003, 262_144, 3_333_333];
    const chunks: Buffer[] = [];
    let total = 0;
    for (let i = 0; total < 11 * 1024 * 1024 + 1234; i++) {
      const chunk = pattern(sizes[i % sizes.length] as number, i + 1);
      chunks.push(chunk);
      total += chunk.length;
      // a copy: the writer may hand a chunk back to the pool once written
      await writeTo(sink.stream, Buffer.from(chunk));
    }
    await sink.commit();
    expect(readFileSync(target).equals(Buffer.concat(chunks))).toBe(true);
    expect(readdirSync(dir)).toEqual(['day.ndjson']);
    expect(descriptorsOn('day.ndjson')).toBe(0);
  });

  it('an output dropped midway leaves the old file as it was, no temporary, no descriptor', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const target = join(dir, 'day.csv');
    writeFileSync(target, 'yesterday\n');
    for (let round = 0; round < 5; round++) {
      const sink = await atomicFileSink(target);
      for (let i = 0; i < 4; i++) await writeTo(sink.stream, pattern(1024 * 1024 + i, i));
      // a batch still on its way when the output is dropped
      sink.stream.write(pattern(1024 * 1024, 9));
      await sink.abort();
      expect(descriptorsOn('day.csv')).toBe(0);
    }
    expect(readFileSync(target, 'utf8')).toBe('yesterday\n');
    expect(readdirSync(dir)).toEqual(['day.csv']);
  });
});
