import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../src/emulator/index.js';
import { NO_PROBES, requestsTo } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// One request planned: a single day of ticks.
const TICKS = ['ticks', 'AAPL', '--start', '2025-03-14', '--end', '2025-03-15'];

const FAULTS: [string, Fault][] = [
  ['a server that answers 503 every time', { kind: 'status', status: 503, retryAfter: 0 }],
  ['a server that closes every connection', { kind: 'hangUp' }],
];

describe('one owner of retries: a request is tried at most retries + 1 times in a run', () => {
  describe.each(FAULTS)('%s', (_name, fault) => {
    it.each([
      ['-o file', true],
      ['stdout', false],
    ])('--retries 2 %s: 3 requests', async (_to, toFile) => {
      await withEmulator({ faults: [fault] }, async (emu) => {
        const dir = tempDir();
        const output = toFile ? ['-o', join(dir, 'out.csv')] : [];
        const run = await runMain([...TICKS, ...output, '--retries', '2'], {
          env: { ...emu.env, ...NO_PROBES },
        });
        expect(run.code).toBe(5);
        expect(requestsTo(emu, 'queryticks.ashx')).toHaveLength(3);
        expect(readdirSync(dir)).toEqual([]);
      });
    });

    it('a library download with retries 2: 3 requests', async () => {
      await withEmulator({ faults: [fault] }, async (emu) => {
        const { createClient } = await import('../../src/index.js');
        const client = createClient(
          { username: 'demo', password: 'demo', historicalUrl: emu.urls.historical },
          { retries: 2 },
        );
        const dir = tempDir();
        try {
          await expect(
            client
              .ticks({ symbols: 'AAPL', start: '2025-03-14', end: '2025-03-15' })
              .download(join(dir, 'out.csv'), { maxRows: 1_000_000 }),
          ).rejects.toMatchObject({ name: 'MdgetError' });
        } finally {
          await client.close();
        }
        expect(requestsTo(emu, 'queryticks.ashx')).toHaveLength(3);
        expect(readdirSync(dir)).toEqual([]);
      });
    });
  });

  it('a body cut once still starts the file over, and the restart is one of its tries', async () => {
    await withEmulator({ faults: [{ kind: 'reset', afterBytes: 3000, times: 2 }] }, async (emu) => {
      const dir = tempDir();
      const file = join(dir, 'out.csv');
      const cut = await runMain([...TICKS, '-o', file, '--retries', '1'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(cut.code).toBe(5);
      expect(requestsTo(emu, 'queryticks.ashx')).toHaveLength(2);
      const again = await runMain([...TICKS, '-o', file, '--retries', '1'], {
        env: { ...emu.env, ...NO_PROBES },
      });
      expect(again.code).toBe(0);
      expect(readdirSync(dir)).toContain('out.csv');
    });
  });
});
