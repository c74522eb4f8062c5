import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DescriptorWritable } from '../../src/core/sink/descriptor-writable.js';

describe.skipIf(process.platform === 'win32')('DescriptorWritable', () => {
  it('a write that fails with no sink listening any more (Ctrl-C, then the reader left) does not crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mdget-fd-'));
    try {
      const fifo = join(dir, 'out.fifo');
      execFileSync('mkfifo', [fifo]);
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writer = openSync(fifo, constants.O_WRONLY);
      closeSync(reader); // the reader is gone: the next write gets EPIPE
      const out = new DescriptorWritable(writer, () => {
        throw new Error('no fallback: EPIPE is no EAGAIN');
      });
      const error = await new Promise((resolve) => out.write(Buffer.alloc(1000), resolve));
      expect(error).toMatchObject({ code: 'EPIPE' });
      // The 'error' event follows on a later tick: unheard, it would fail this run as an uncaught error.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(out.destroyed).toBe(true);
      closeSync(writer);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
