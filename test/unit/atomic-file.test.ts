import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atomicFileSink, BackgroundSync, writeTo } from '../../src/core/writers/atomic-file.js';

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
    const piece = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 40; i++) await writeTo(sink.stream, piece.fill(i));
    await sink.commit();
    const written = readFileSync(target);
    expect(written.length).toBe(40 * 1024 * 1024);
    expect([written[0], written[20 * 1024 * 1024], written.at(-1)]).toEqual([0, 20, 39]);
    expect(readdirSync(dir)).toEqual(['day.csv']);
  });

  it.skipIf(process.platform !== 'linux')(
    'a failed background sync is kept and reported, not lost to a later sync that succeeds',
    async () => {
      // fdatasync on a character device fails (EINVAL): a stand-in for a disk error, which the next fsync on
      // Linux may no longer report.
      const fd = openSync('/dev/null', 'r');
      try {
        const sync = new BackgroundSync(fd);
        sync.wrote(4 * 1024 * 1024);
        await expect(sync.settle()).resolves.toBeUndefined(); // under the interval: nothing started
        sync.wrote(8 * 1024 * 1024);
        await expect(sync.settle()).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
      } finally {
        closeSync(fd);
      }
    },
  );
});
