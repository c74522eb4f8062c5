import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_PROBES, requestsTo } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// The transport is resolved once, with the job: --dry-run shows what a run would use.
const FLAGS = ['--concurrency', '12', '--retries', '1', '--timeout', '5s', '--rate', '2'];
const SHOWN = 'mdget: transport: concurrency 12, retries 1, timeout 5 s, rate 2/s, 12 sockets per host';

const DATASET = `root = "data"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL"]
start = "2025-03-10"
end = "2025-03-12"
path = "eod/{symbol}.csv"
`;

describe('one settings object: the transport of a run', () => {
  it('--dry-run of a download prints it first on stderr; -q leaves it out', async () => {
    await withEmulator({}, async (emu) => {
      const args = ['ticks', 'AAPL', '--start', '2025-03-14', '--dry-run', ...FLAGS];
      const run = await runMain(args, { env: emu.env });
      expect(run.code).toBe(0);
      expect(run.stderr.split('\n')[0]).toBe(SHOWN);
      const defaults = await runMain(['ticks', 'AAPL', '--start', '2025-03-14', '--dry-run'], {
        env: emu.env,
      });
      expect(defaults.stderr.split('\n')[0]).toBe(
        'mdget: transport: concurrency 4, retries 3, timeout 60 s, rate unlimited, 8 sockets per host',
      );
      const quiet = await runMain([...args, '-q'], { env: emu.env });
      expect(quiet.stderr).toBe('');
      expect(emu.requests).toHaveLength(0);
    });
  });

  it('sync --dry-run prints it; a sync tries each request retries + 1 times in all', async () => {
    await withEmulator({ faults: [{ kind: 'hangUp' }] }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const env = { ...emu.env, ...NO_PROBES };
      const dry = await runMain(['sync', '--dry-run', ...FLAGS], { env, cwd: dir });
      expect(dry.code).toBe(0);
      expect(dry.stderr).toContain(SHOWN);
      expect(emu.requests).toHaveLength(0);
      const run = await runMain(['sync', '--retries', '1'], { env, cwd: dir });
      expect(run.code).toBe(5);
      expect(requestsTo(emu, 'queryeod.ashx')).toHaveLength(2);
    });
  });
});
