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
