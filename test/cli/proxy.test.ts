import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { CANARY_ACCOUNT } from '../helpers/cli-env.js';
import { CANARY, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';
import { freePort, SERVICE_HOST, TINYPROXY, withProxy } from '../helpers/with-proxy.js';
import { withTlsEmulator } from '../helpers/with-tls-emulator.js';

const TICKS = ['ticks', 'ESM25', '--start', '2025-03-10', '--end', '2025-03-10T01:00', '--retries', '0'];
const PROXY_SECRET = 'ProxyPw4Canary';
const QUERY = { symbols: 'ESM25', start: '2025-03-10', end: '2025-03-10T00:10' };

/** The emulator's settings with its base URLs on the host only the proxy can resolve. */
function behindProxy(env: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const [name, value] of Object.entries(env))
    if (name.endsWith('_URL')) out[name] = value.replace('127.0.0.1', SERVICE_HOST);
  return out;
}

/** The run's whole output, with no secret in it. */
function clean(run: { stdout: string; stderr: string }): string {
  expect(run.stdout + run.stderr).not.toContain(CANARY);
  expect(run.stdout + run.stderr).not.toContain(PROXY_SECRET);
  return run.stderr;
}

describe.skipIf(!TINYPROXY)('through a real proxy (tinyproxy)', () => {
  it('sends http:// requests to HTTP_PROXY in absolute form; without the proxy the host does not resolve', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      await withProxy({}, async (proxy) => {
        const env = behindProxy(emu.env);
        const direct = await runMain(TICKS, { env: { ...env, MDGET_ALLOW_HTTP: '1' } });
        expect([direct.code, clean(direct)]).toEqual([
          5,
          expect.stringContaining(`ENOTFOUND ${SERVICE_HOST}`),
        ]);
        const run = await runMain(TICKS, { env: { ...env, MDGET_ALLOW_HTTP: '1', http_proxy: proxy.url } });
        expect([run.code, clean(run)]).toEqual([0, '']);
        expect(run.stdout.split('\n').length).toBeGreaterThan(10);
        expect(proxy.forwarded[0]).toMatch(
          new RegExp(`^GET http://${SERVICE_HOST}:\\d+/historical/queryticks\\.ashx\\?`),
        );
        expect(emu.requests.length).toBe(proxy.forwarded.length);
        expect(emu.requests.every((r) => String(r.headers.via).includes('tinyproxy'))).toBe(true);
      });
    });
  });

  it('tunnels https:// requests through HTTPS_PROXY with CONNECT: a download, a reference command and a sync', async () => {
    await withTlsEmulator(CANARY_ACCOUNT, true, async (emu) => {
      await withProxy({}, async (proxy) => {
        const env = { ...behindProxy(emu.env), HTTPS_PROXY: proxy.url };
        const run = await runMain(TICKS, { env });
        expect([run.code, clean(run)]).toEqual([0, '']);
        const exchanges = await runMain(['exchanges', '--format', 'json'], { env });
        expect([exchanges.code, clean(exchanges)]).toEqual([0, '']);
        expect(proxy.forwarded.length).toBeGreaterThanOrEqual(2);
        expect(proxy.forwarded.every((line) => new RegExp(`^CONNECT ${SERVICE_HOST}:\\d+ `).test(line))).toBe(
          true,
        );
        const dir = tempDir();
        writeFileSync(
          join(dir, 'mdget.toml'),
          '[[series]]\nname = "es"\nkind = "eod"\nsymbols = ["ESM25"]\nstart = "2025-03-03"\nend = "2025-03-07"\npath = "eod/{symbol}.csv"\n',
        );
        const { HTTPS_PROXY: _env, ...noEnvProxy } = env;
        const sync = await runMain(['sync', '--quiet', '--proxy', proxy.url], {
          env: { ...noEnvProxy, MDGET_NOW: '2025-03-20T00:00:00Z' },
          cwd: dir,
        });
        expect([sync.code, clean(sync)]).toEqual([0, '']);
        expect(readdirSync(join(dir, 'eod'))).toEqual(['ESM25.csv']);
        expect(emu.requests.map((r) => r.path)).toContain('/extras/exchanges.php');
        expect(emu.requests.map((r) => r.path)).toContain('/historical/queryeod.ashx');
      });
    });
  });

  it('sends proxy credentials from the URL and redacts them; a proxy that wants them and gets none is exit 5 naming it', async () => {
    await withTlsEmulator(CANARY_ACCOUNT, true, async (emu) => {
      await withProxy({ auth: { user: 'agent', password: PROXY_SECRET } }, async (proxy) => {
        const bare = proxy.url.replace(/\/\/[^@]+@/, '//');
        const env = behindProxy(emu.env);
        const refused = await runMain(TICKS, { env: { ...env, HTTPS_PROXY: bare } });
        expect([refused.code, clean(refused)]).toEqual([
          5,
          `mdget: proxy ${bare} refused the request: 407 Proxy Authentication Required: check the user and password in the proxy URL: ${env.MDGET_HISTORICAL_URL}/queryticks.ashx?username=***&password=***&symbol=ESM25&start=20250310&end=20250310010000&order=asc\n`,
        ]);
        const plain = await runMain(TICKS, {
          env: {
            ...env,
            MDGET_HISTORICAL_URL: env.MDGET_HISTORICAL_URL!.replace('https:', 'http:'),
            MDGET_ALLOW_HTTP: '1',
            HTTP_PROXY: bare,
          },
        });
        expect([plain.code, clean(plain)]).toEqual([
          5,
          expect.stringContaining(`mdget: proxy ${bare} refused the request: 407`),
        ]);
        expect(emu.requests).toEqual([]);
        const run = await runMain([...TICKS, '--proxy', proxy.url, '--verbose'], { env });
        expect([run.code, clean(run)]).toEqual([0, expect.stringContaining('GET https://')]);
        const config = await runMain(['config', '--proxy', proxy.url], { env });
        expect(clean(config)).toBe('');
        expect(config.stdout).toContain(`http://***:***@127.0.0.1:${proxy.port}`);
      });
    });
  });

  it('a proxy that refuses the port (403) or cannot reach the host (tinyproxy: 500) is exit 5 naming it', async () => {
    await withTlsEmulator(CANARY_ACCOUNT, true, async (emu) => {
      await withProxy({ connectPorts: [443] }, async (proxy) => {
        const env = { ...behindProxy(emu.env), HTTPS_PROXY: proxy.url };
        const forbidden = await runMain(TICKS, { env });
        expect([forbidden.code, clean(forbidden)]).toEqual([
          5,
          expect.stringMatching(/^mdget: proxy http:\/\/127\.0\.0\.1:\d+ refused the request: 403 Forbidden/),
        ]);
      });
      await withProxy({}, async (proxy) => {
        const closed = await freePort();
        // tinyproxy connects to an address itself, and finds nothing listening there
        const env = {
          ...emu.env,
          HTTPS_PROXY: proxy.url,
          MDGET_HISTORICAL_URL: `https://127.0.0.1:${closed}/historical`,
        };
        const unreachable = await runMain(TICKS, { env });
        expect([unreachable.code, clean(unreachable)]).toEqual([
          5,
          expect.stringMatching(
            /^mdget: proxy http:\/\/127\.0\.0\.1:\d+ refused the request: (500|502) .*could not reach the host/,
          ),
        ]);
      });
    });
  });

  it('the library goes through createClient({ proxy, ca }) and reads no environment', async () => {
    await withTlsEmulator(CANARY_ACCOUNT, true, async (emu) => {
      await withProxy({}, async (proxy) => {
        const env = behindProxy(emu.env);
        const config = { username: 'tester', password: CANARY, historicalUrl: env.MDGET_HISTORICAL_URL };
        const client = createClient(config, { proxy: proxy.url, ca: emu.ca!, retries: 0 });
        try {
          const rows = [];
          for await (const row of client.ticks(QUERY)) rows.push(row);
          expect(rows.length).toBeGreaterThan(3);
        } finally {
          await client.close();
        }
        expect(proxy.forwarded[0]).toMatch(/^CONNECT /);
        const direct = createClient(config, { ca: emu.ca!, retries: 0 });
        // the library never reads HTTPS_PROXY: without the option the host does not resolve
        process.env.HTTPS_PROXY = proxy.url;
        try {
          await expect(direct.ticks(QUERY).download(new PassThrough())).rejects.toMatchObject({
            code: 'MDGET_NETWORK',
            message: expect.stringContaining('ENOTFOUND'),
          });
        } finally {
          delete process.env.HTTPS_PROXY;
        }
        await direct.close();
      });
    });
  });
});

describe('proxies without a proxy running', () => {
  it('a proxy that cannot be reached is exit 5 naming it, credentials redacted', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const port = await freePort();
      const proxyUrl = `http://agent:${PROXY_SECRET}@127.0.0.1:${port}`;
      const run = await runMain(TICKS, { env: { ...emu.env, HTTP_PROXY: proxyUrl } });
      expect([run.code, clean(run)]).toEqual([
        5,
        expect.stringMatching(
          new RegExp(
            `^mdget: cannot reach proxy http://\\*\\*\\*@127\\.0\\.0\\.1:${port}: .*\\(ECONNREFUSED\\)`,
          ),
        ),
      ]);
      expect(emu.requests).toEqual([]);
    });
  });

  it("NO_PROXY, --no-proxy and --proxy '' send requests direct", async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dead = `http://127.0.0.1:${await freePort()}`;
      for (const [extra, args] of [
        [{ NO_PROXY: 'example.org, 127.0.0.1' }, []],
        [{ no_proxy: '*' }, []],
        [{ NO_PROXY: `127.0.0.0/8:${new URL(emu.url).port}` }, []],
        [{}, ['--no-proxy']],
        [{}, ['--proxy', '']],
      ] as const) {
        const run = await runMain([...TICKS, ...args], { env: { ...emu.env, HTTP_PROXY: dead, ...extra } });
        expect([run.code, clean(run)], JSON.stringify([extra, args])).toEqual([0, '']);
      }
      const run = await runMain(TICKS, { env: { ...emu.env, HTTP_PROXY: dead, NO_PROXY: '127.0.0.1:1' } });
      expect(run.code).toBe(5);
    });
  });

  it('refuses a malformed proxy URL naming where it came from, before any request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const flag = await runMain([...TICKS, '--proxy', 'socks5://127.0.0.1:1080'], { env: emu.env });
      expect([flag.code, flag.stderr]).toEqual([
        2,
        "mdget: --proxy 'socks5://127.0.0.1:1080': socks5:// proxies are not supported: expected http://host:port, with user:password@ before the host if the proxy asks\n",
      ]);
      const variable = await runMain(TICKS, { env: { ...emu.env, HTTPS_PROXY: 'http://[::1' } });
      expect([variable.code, variable.stderr]).toEqual([
        3,
        "mdget: HTTPS_PROXY 'http://[::1' is not a URL: expected http://host:port, with user:password@ before the host if the proxy asks\n",
      ]);
      expect(emu.requests).toEqual([]);
    });
  });

  it('a dataset file names no proxy: the command line or the environment does', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'mdget.toml'),
      '[[series]]\nname = "es"\nkind = "eod"\nsymbols = ["ESM25"]\nstart = "2025-03-03"\npath = "eod/{symbol}.csv"\noptions = { proxy = "http://proxy:3128" }\n',
    );
    const run = await runMain(['sync', '--dry-run'], { cwd: dir });
    expect([run.code, run.stderr]).toEqual([
      2,
      `mdget: ${join(dir, 'mdget.toml')}:7: series "es": options.proxy: set by the command line (mdget sync --proxy) or HTTPS_PROXY and NO_PROXY in the environment or .env, not in options\n`,
    ]);
  });

  it('mdget config shows the proxy of each base URL and where it came from', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const env = {
        ...emu.env,
        MDGET_INSTRUMENTS_URL: 'https://files.example.org/instruments',
        http_proxy: `http://agent:${PROXY_SECRET}@proxy.example.org:3128`,
        HTTPS_PROXY: 'proxy.example.org:3129',
        NO_PROXY: '.example.org',
      };
      const run = await runMain(['config'], { env });
      clean(run);
      const lines = run.stdout.split('\n').filter((line) => line.startsWith('proxy for '));
      expect(lines.map((line) => line.split(/\s{2,}/))).toEqual([
        ['proxy for MDGET_HISTORICAL_URL', 'http://***:***@proxy.example.org:3128', 'environment http_proxy'],
        [
          'proxy for MDGET_FUTURES_OPTIONS_URL',
          'http://***:***@proxy.example.org:3128',
          'environment http_proxy',
        ],
        ['proxy for MDGET_EXTRAS_URL', 'http://***:***@proxy.example.org:3128', 'environment http_proxy'],
        ['proxy for MDGET_INSTRUMENTS_URL', 'direct', 'NO_PROXY entry .example.org (environment NO_PROXY)'],
      ]);
    });
  });
});
