import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atomicFileSink, BackgroundSync, writeTo } from '../../src/core/writers/atomic-file.js';
import { closeDirect, DirectBlocks, openDirect } from '../../src/core/writers/direct-writer.js';

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

/** The O_DIRECT descriptors this process holds on files whose name contains `part` (Linux). */
function directDescriptors(part: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (!readlinkSync(`/proc/self/fd/${fd}`).includes(part)) continue;
      const flags = /flags:\s*(\d+)/.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1] ?? '0';
      if (Number.parseInt(flags, 8) & constants.O_DIRECT) count++;
    } catch {
      // a descriptor closed meanwhile
    }
  }
  return count;
}

// ext4 and XFS: where the output goes past the page cache once large (direct-writer.ts)
const directHere = (() => {
  if (process.platform !== 'linux') return false;
  const type = Number(statfsSync(tmpdir()).type);
  return type === 0xef53 || type === 0x58465342;
})();

/** Where these tests switch to direct writes (the default, 128 MiB, would make slow tests). */
const DIRECT_FROM = 4 * 1024 * 1024;

describe('atomicFileSink: a large output past the page cache', () => {
  it('odd chunks across the switch to direct writes are whole, byte for byte, with an unaligned tail', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const target = join(dir, 'day.ndjson');
    const sink = await atomicFileSink(target, { directFromBytes: DIRECT_FROM });
    const sizes = [1, 4095, 65_537, 1_000_003, 262_144, 3_333_333];
    const chunks: Buffer[] = [];
    let total = 0;
    let sawDirect = false;
    for (let i = 0; total < DIRECT_FROM + 7 * 1024 * 1024 + 1234; i++) {
      const chunk = pattern(sizes[i % sizes.length] as number, i + 1);
      chunks.push(chunk);
      total += chunk.length;
      // a copy: the writer may hand a chunk back to the pool once copied
      await writeTo(sink.stream, Buffer.from(chunk));
      if (total > DIRECT_FROM + 2 * 1024 * 1024) sawDirect ||= directDescriptors('.day.ndjson.') > 0;
    }
    await sink.commit();
    expect(readFileSync(target).equals(Buffer.concat(chunks))).toBe(true);
    expect(readdirSync(dir)).toEqual(['day.ndjson']);
    expect(directDescriptors('day.ndjson')).toBe(0);
    if (directHere) expect(sawDirect).toBe(true);
  });

  it('an output dropped after the switch leaves the old file as it was, no temporary, no descriptor', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const target = join(dir, 'day.csv');
    writeFileSync(target, 'yesterday\n');
    const sink = await atomicFileSink(target, { directFromBytes: DIRECT_FROM });
    for (let i = 0; i < 8; i++) await writeTo(sink.stream, pattern(1024 * 1024 + i, i));
    if (directHere) expect(directDescriptors('.day.csv.')).toBe(1);
    await sink.abort();
    expect(readFileSync(target, 'utf8')).toBe('yesterday\n');
    expect(readdirSync(dir)).toEqual(['day.csv']);
    expect(directDescriptors('day.csv')).toBe(0);
  });

  it('an output dropped while it opens its direct descriptor closes it and writes nothing more', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const target = join(dir, 'day.csv');
    writeFileSync(target, 'yesterday\n');
    for (let round = 0; round < 5; round++) {
      const sink = await atomicFileSink(target, { directFromBytes: DIRECT_FROM });
      for (let i = 0; i < 4; i++) await writeTo(sink.stream, pattern(1024 * 1024, i));
      // the batch that crosses the line: the switch starts (statfs, open) and the output is dropped at once
      sink.stream.write(pattern(1024 * 1024, 9));
      await sink.abort();
      // a descriptor opened after the abort returned would show here
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(directDescriptors('day.csv')).toBe(0);
    }
    expect(readFileSync(target, 'utf8')).toBe('yesterday\n');
    expect(readdirSync(dir)).toEqual(['day.csv']);
  });

  it('one output writes directly at a time; another takes the turn once it ends, both whole', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const [a, b] = [join(dir, 'a.csv'), join(dir, 'b.csv')];
    const [sinkA, sinkB] = await Promise.all(
      [a, b].map((t) => atomicFileSink(t, { directFromBytes: DIRECT_FROM })),
    );
    const written: Record<string, Buffer[]> = { a: [], b: [] };
    const send = async (sink: typeof sinkA, name: 'a' | 'b', count: number) => {
      for (let i = 0; i < count; i++) {
        const chunk = pattern(1024 * 1024 + 17, written[name]!.length + (name === 'a' ? 0 : 1000));
        written[name]!.push(chunk);
        await writeTo(sink!.stream, Buffer.from(chunk));
      }
    };
    await send(sinkA, 'a', 7);
    await send(sinkB, 'b', 7);
    if (directHere) {
      expect(directDescriptors('.a.csv.')).toBe(1);
      expect(directDescriptors('.b.csv.')).toBe(0);
    }
    await sinkA!.commit();
    await send(sinkB, 'b', 3);
    if (directHere) expect(directDescriptors('.b.csv.')).toBe(1);
    await sinkB!.commit();
    expect(readFileSync(a).equals(Buffer.concat(written.a!))).toBe(true);
    expect(readFileSync(b).equals(Buffer.concat(written.b!))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['a.csv', 'b.csv']);
  });

  it('a small output never opens a second descriptor', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const target = join(dir, 'small.csv');
    const sink = await atomicFileSink(target, { directFromBytes: DIRECT_FROM });
    for (let i = 0; i < 3; i++) await writeTo(sink.stream, pattern(1024 * 1024, i));
    expect(directDescriptors('.small.csv.')).toBe(0);
    await sink.commit();
    expect(readFileSync(target).length).toBe(3 * 1024 * 1024);
  });
});

describe.skipIf(!directHere)('DirectBlocks: a direct write refused', () => {
  it('goes through the buffered descriptor instead, and says so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdget-atomic-'));
    const path = join(dir, 'out');
    const buffered = openSync(path, 'w');
    const direct = await openDirect(path);
    expect(direct).toBeDefined();
    try {
      // an offset O_DIRECT cannot take: the kernel answers EINVAL
      const told: number[] = [];
      const blocks = new DirectBlocks(direct as number, buffered, 1000, (bytes) => told.push(bytes));
      const data = pattern(3 * 1024 * 1024 + 5, 7);
      await blocks.take(data);
      await blocks.finish();
      const written = readFileSync(path);
      expect(written.length).toBe(1000 + data.length);
      expect(written.subarray(1000).equals(data)).toBe(true);
      expect(told.reduce((a, b) => a + b, 0)).toBe(data.length);
    } finally {
      await closeDirect(direct as number);
      closeSync(buffered);
    }
  });
});
