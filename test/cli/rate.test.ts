import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT, NO_PROBES, requestsTo } from '../helpers/cli-env.js';
import { runCli } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** --rate, a token bucket shared by every request of the run, against the emulator's rateLimit. */
const SYMBOLS = ['ESM25', 'NQM25', 'AAPL', 'MSFT', 'IBM', 'SPY', 'ZCN25', 'CLM25', 'GCM25', 'TSLA'];
const args = [
  'ticks',
  ...SYMBOLS,
  '--start',
  '2025-03-10',
  '--end',
  '2025-03-13',
  '--concurrency',
  '8',
  '-q',
];

// Small days: an emulator busy generating large bodies would take in several requests at once, bunching
// their arrival times into its sliding second (a refusal the client's pacing did not cause).
const SMALL_DAYS = { ticksPerDay: 2000 };

describe('--rate and a server that answers 429', () => {
  it('--rate under the server limit: no request is refused', async () => {
    // --rate 5 against a limit of 12: the margin covers arrivals that a loaded machine bunches together
    // (the emulator stamps a request when its event loop gets to it, not when it left mdget)
    const fifteen = ['ticks', ...SYMBOLS.slice(0, 5), ...args.slice(1 + SYMBOLS.length)];
    await withEmulator({ ...CANARY_ACCOUNT, ...SMALL_DAYS, rateLimit: 12, retryAfter: 1 }, async (emu) => {
      const started = Date.now();
      const run = await runCli([...fifteen, '--rate', '5'], { env: { ...emu.env, ...NO_PROBES } });
      expect([run.code, run.stderr]).toEqual([0, '']);
      const ticks = requestsTo(emu, 'queryticks.ashx');
      expect(ticks.filter((r) => r.rateLimited)).toHaveLength(0);
      expect(ticks).toHaveLength(15);
      expect(Date.now() - started).toBeGreaterThan(2500); // 15 requests, 1/5 s apart
    });
  });

  it('no --rate, or one too high: 429s slow the whole run down, it completes, and refusals stay few', async () => {
    for (const rate of [[], ['--rate', '40']]) {
      await withEmulator({ ...CANARY_ACCOUNT, ...SMALL_DAYS, rateLimit: 10, retryAfter: 1 }, async (emu) => {
        const run = await runCli([...args, ...rate], { env: { ...emu.env, ...NO_PROBES } });
        expect([run.code, run.stderr]).toEqual([0, '']);
        const ticks = requestsTo(emu, 'queryticks.ashx');
        const refused = ticks.filter((r) => r.rateLimited);
        expect(ticks.length - refused.length).toBe(30);
        expect(refused.length).toBeGreaterThan(0);
        // after a refusal everyone waits out Retry-After: no request of the run arrives during it, but
        // those already on the way
        const first = refused[0]!.arrivedMs;
        const during = ticks.filter((r) => r.arrivedMs > first + 150 && r.arrivedMs < first + 900);
        expect(during).toHaveLength(0);
        expect(refused.length).toBeLessThanOrEqual(16);
      });
    }
  });

  it('--rate takes n, n/s, n/m, n/h; anything else is a usage error before any request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      for (const bad of ['fast', '0', '-3', '5/d']) {
        const run = await runCli(['ticks', 'AAPL', '--start', '2025-03-10', '--rate', bad], { env: emu.env });
        expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(/--rate.*requests per second/)]);
      }
      const ok = await runCli(['ticks', 'AAPL', '--start', '2025-03-10', '--rate', '120/m', '-q'], {
        env: emu.env,
      });
      expect(ok.code).toBe(0);
    });
  });
});
