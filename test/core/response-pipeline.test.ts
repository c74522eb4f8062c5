import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/core/http/agent.js';
import { DEFAULT_RETRY } from '../../src/core/http/retry.js';
import type { Config } from '../../src/core/model/config.js';
import { isMdgetError, type MdgetError } from '../../src/core/model/errors.js';
import { optionNames } from '../../src/core/plan/names.js';
import { resolve } from '../../src/core/plan/resolve.js';
import { runExchanges, runInstruments } from '../../src/core/reference/instruments-command.js';
import { runJob } from '../../src/core/run/run-job.js';
import type { Emulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** Data downloads and reference commands go through one response pipeline and one error mapping. */
const configOf = (emu: Emulator): Config => ({
  username: emu.env.MDGET_USERNAME!,
  password: emu.env.MDGET_PASSWORD!,
  historicalUrl: emu.env.MDGET_HISTORICAL_URL!,
  extrasUrl: emu.env.MDGET_EXTRAS_URL!,
  exchangesPath: emu.env.MDGET_EXCHANGES_PATH!,
  instrumentsUrl: emu.env.MDGET_INSTRUMENTS_URL!,
});

/** Runs `body` with the deps a command gets: a fresh dispatcher, no retries, a stdout nobody reads. */
async function withDeps<T>(
  config: Config,
  body: (deps: Parameters<typeof runInstruments>[2]) => Promise<T>,
): Promise<T> {
  const dispatcher = createDispatcher({ timeoutMs: 30_000 });
  try {
    return await body({
      dispatcher,
      retry: { ...DEFAULT_RETRY, retries: 0 },
      stdout: new PassThrough(),
      secrets: [config.password],
    });
  } finally {
    await dispatcher.close();
  }
}

/** The MdgetError `run` rejects with (fails the test if it resolves or throws anything else). */
async function failureOf(run: () => Promise<unknown>): Promise<MdgetError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isMdgetError(error)) throw new Error(`expected an MdgetError, got ${String(error)}`);
  return error;
}

/** An error reduced to its shape: code, status, and the message with its (redacted) URL replaced. */
const shapeOf = (error: MdgetError) => ({
  code: error.code,
  status: error.status,
  message: error.message.replace(error.url ?? '\u0000', '<url>'),
});

describe('one response pipeline', () => {
  it('an HTML maintenance page: a data download, the exchanges list and an instruments file fail alike', async () => {
    const faults = [
      { kind: 'html', path: 'queryticks.ashx' },
      { kind: 'html', path: 'exchanges.php', times: 1 }, // the list's first request only
      { kind: 'html', path: 'CME-instruments.json' },
    ] as const;
    await withEmulator({ faults: [...faults] }, async (emu) => {
      const config = configOf(emu);
      const dir = tempDir();
      const data = await withDeps(config, async (deps) => {
        const job = resolve(
          'ticks',
          { symbols: ['ESM25'], start: new Date('2025-03-13T00:00:00Z'), output: join(dir, 'ticks.csv') },
          { config, now: new Date(), names: optionNames },
        );
        const result = await runJob(job, { ...deps, config });
        return result.failure;
      });
      const list = await failureOf(() =>
        withDeps(config, (deps) =>
          runExchanges({ format: 'csv', output: join(dir, 'x.csv'), force: false }, config, deps),
        ),
      );
      const file = await failureOf(() =>
        withDeps(config, (deps) =>
          runInstruments(
            { exchange: 'CME', format: 'csv', output: join(dir, 'cme.csv'), force: false },
            config,
            deps,
          ),
        ),
      );
      expect(data).toBeDefined();
      const expected = {
        code: 'MDGET_HTTP',
        status: 200,
        message: 'server sent an HTML page instead of data (maintenance?): <url>',
      };
      expect([shapeOf(data!), shapeOf(list), shapeOf(file)]).toEqual([expected, expected, expected]);
      expect([data!.url, list.url, file.url]).toEqual([
        expect.stringMatching(/queryticks\.ashx\?.*password=\*\*\*/),
        expect.stringMatching(/exchanges\.php$/),
        expect.stringMatching(/\/CME-instruments\.json$/),
      ]);
      expect(['ticks.csv', 'x.csv', 'cme.csv'].some((name) => existsSync(join(dir, name)))).toBe(false);
    });
  });

  it.each([
    [404, 'no instruments file'],
    [403, 'the instruments host refused'],
  ])(
    'an instruments file refused with HTTP %i: the status and URL come through on the error',
    async (status, what) => {
      const faults = [{ kind: 'status', status, path: 'CME-instruments.json' }] as const;
      await withEmulator({ faults: [...faults] }, async (emu) => {
        const config = configOf(emu);
        const error = await failureOf(() =>
          withDeps(config, (deps) =>
            runInstruments({ exchange: 'CME', format: 'ndjson', output: '-', force: false }, config, deps),
          ),
        );
        expect(error).toMatchObject({
          code: 'MDGET_SERVICE',
          status,
          url: `${emu.urls.instruments}/CME-instruments.json`,
        });
        expect(error.detail).toMatch(new RegExp(`^${status} `));
        expect(error.message).toBe(
          `exchange CME (CME Globex): ${what} (HTTP ${status}) ${error.url}: ${error.detail}`,
        );
      });
    },
  );
});
