import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT } from '../helpers/cli-env.js';
import { withEmulator } from '../helpers/with-emulator.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('single executable (npm run sea)', () => {
  it('builds, runs without node_modules, downloads, and refuses sqlite with a usage error', {
    timeout: 120_000,
  }, async () => {
    await run(process.execPath, ['scripts/build-sea.js'], { cwd: root });
    const bin = `${root}build/mdget`;
    expect((await run(bin, ['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const env = { PATH: process.env.PATH ?? '', ...emu.env };
      const { stdout } = await run(bin, ['eod', 'AAPL', '--start', '2025-03-10', '--end', '2025-03-12'], {
        env,
        cwd: '/',
      });
      expect(stdout.split('\n').slice(0, 2)).toEqual([
        'symbol,date,open,high,low,close,volume,open_interest',
        expect.stringMatching(/^AAPL,2025-03-10,/),
      ]);
      const sqlite = await run(bin, ['instruments', 'CME', '--format', 'sqlite', '-o', '/nonexistent/x.db'], {
        env,
      }).catch((error: { code: number; stderr: string }) => error);
      expect(sqlite).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('single binary cannot embed'),
      });
    });
  });
});
