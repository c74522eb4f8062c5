import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { makeCertificates } from '../../src/emulator/index.js';
import { CANARY_ACCOUNT } from '../helpers/cli-env.js';
import { BIN, CANARY, nodePath, runCli, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';
import { withTlsEmulator } from '../helpers/with-tls-emulator.js';

const TICKS = ['ticks', 'ESM25', '--start', '2025-03-10', '--end', '2025-03-10T01:00', '--retries', '0'];
const DAY_MS = 86_400_000;

/** One stderr line, the canary password nowhere. */
function oneLine(run: { stdout: string; stderr: string }): string {
  expect(run.stdout + run.stderr).not.toContain(CANARY);
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  return run.stderr.trimEnd();
}

describe('HTTPS to the emulator (mdget emulator --tls)', () => {
  it('downloads over HTTPS trusting the run CA named by NODE_EXTRA_CA_CERTS', async () => {
    await withTlsEmulator(CANARY_ACCOUNT, true, async (emu) => {
      expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const run = await runMain(TICKS, { env: emu.env });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout.split('\n')[0]).toBe('symbol,time,trading_day,session_code,price,size');
      expect(run.stdout.split('\n').length).toBeGreaterThan(10);
      expect(new Set(emu.requests.map((r) => r.path))).toEqual(new Set(['/historical/queryticks.ashx']));
    });
  });

  it('syncs a dataset over HTTPS', async () => {
    await withTlsEmulator(CANARY_ACCOUNT, true, async (emu) => {
      const dir = tempDir();
      const { writeFileSync, readdirSync } = await import('node:fs');
      writeFileSync(
        join(dir, 'mdget.toml'),
        '[[series]]\nname = "es"\nkind = "eod"\nsymbols = ["ESM25"]\nstart = "2025-03-03"\nend = "2025-03-07"\npath = "eod/{symbol}.csv"\n',
      );
      const run = await runMain(['sync', '--quiet'], {
        env: { ...emu.env, MDGET_NOW: '2025-03-20T00:00:00Z' },
        cwd: dir,
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(readdirSync(join(dir, 'eod'))).toEqual(['ESM25.csv']);
      expect(emu.requests.some((r) => r.path === '/historical/queryeod.ashx')).toBe(true);
    });
  });

  it('refuses a certificate for another host name: exit 5, one line naming the host', async () => {
    const trusted = makeCertificates({ hosts: ['localhost'] });
    const other = makeCertificates({ hosts: ['elsewhere.test'], ca: trusted.ca });
    await withTlsEmulator(CANARY_ACCOUNT, other, async (emu) => {
      const run = await runMain(TICKS, { env: emu.env });
      const host = new URL(emu.url).host;
      expect([run.code, oneLine(run)]).toEqual([
        5,
        expect.stringMatching(
          new RegExp(
            `^mdget: TLS: cannot trust ${host}: its certificate is for another host name \\(ERR_TLS_CERT_ALTNAME_INVALID\\)`,
          ),
        ),
      ]);
      expect(emu.requests).toEqual([]);
    });
  });

  it('refuses an expired certificate: exit 5, one line naming the host', async () => {
    const now = Date.now();
    const expired = makeCertificates({
      hosts: ['127.0.0.1'],
      notBefore: new Date(now - 60 * DAY_MS),
      notAfter: new Date(now - DAY_MS),
    });
    await withTlsEmulator(CANARY_ACCOUNT, expired, async (emu) => {
      const run = await runMain(TICKS, { env: emu.env });
      expect([run.code, oneLine(run)]).toEqual([
        5,
        expect.stringContaining(
          `TLS: cannot trust ${new URL(emu.url).host}: its certificate has expired (CERT_HAS_EXPIRED)`,
        ),
      ]);
      expect(emu.requests).toEqual([]);
    });
  });

  it('refuses a certificate from an unknown CA: exit 5, one line naming the host and NODE_EXTRA_CA_CERTS', async () => {
    await withTlsEmulator(CANARY_ACCOUNT, true, async (emu) => {
      const { NODE_EXTRA_CA_CERTS: _trusted, ...env } = emu.env;
      const run = await runMain(TICKS, { env });
      expect([run.code, oneLine(run)]).toEqual([
        5,
        expect.stringMatching(
          new RegExp(
            `^mdget: TLS: cannot trust ${new URL(emu.url).host}: its certificate is signed by an authority not trusted here \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\); a private CA goes in NODE_EXTRA_CA_CERTS`,
          ),
        ),
      ]);
      expect(emu.requests).toEqual([]);
    });
  });

  it('never follows a redirect from HTTPS to HTTP: the credentials stay on the HTTPS side', async () => {
    await withEmulator(CANARY_ACCOUNT, async (plain) => {
      const location = `${plain.urls.historical}/queryticks.ashx?username=tester&password=${CANARY}&symbol=ESM25`;
      await withTlsEmulator(
        { ...CANARY_ACCOUNT, faults: [{ kind: 'redirect', location }] },
        true,
        async (emu) => {
          const run = await runMain(TICKS, { env: emu.env });
          expect([run.code, oneLine(run)]).toEqual([5, expect.stringContaining('HTTP 302 from https://')]);
          expect(run.stderr).toContain(
            `redirect to ${plain.urls.historical}/queryticks.ashx?username=***&password=***`,
          );
          expect(plain.requests).toEqual([]);
        },
      );
    });
  });

  it('says which file NODE_EXTRA_CA_CERTS names when it cannot be read: exit 3, nothing sent', async () => {
    await withTlsEmulator(CANARY_ACCOUNT, true, async (emu) => {
      const missing = join(tempDir(), 'none.pem');
      const run = await runMain(TICKS, { env: { ...emu.env, NODE_EXTRA_CA_CERTS: missing } });
      expect([run.code, run.stderr]).toEqual([
        3,
        `mdget: NODE_EXTRA_CA_CERTS ${missing}: cannot read it (ENOENT): name a PEM file of CA certificates\n`,
      ]);
      expect(emu.requests).toEqual([]);
    });
  });

  it('removes the run CA file when the emulator stops', async () => {
    let file = '';
    await withTlsEmulator({}, true, async (emu) => {
      file = emu.env.NODE_EXTRA_CA_CERTS ?? '';
      expect(existsSync(file)).toBe(true);
    });
    expect(existsSync(file)).toBe(false);
  });

  it('mdget emulator --tls prints NODE_EXTRA_CA_CERTS, which a new mdget process trusts at start-up', async () => {
    const emulator = spawn(BIN, ['emulator', '--tls'], {
      env: { PATH: nodePath(), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const env: Record<string, string> = {};
      for await (const line of createInterface({ input: emulator.stdout })) {
        const eq = line.indexOf('=');
        env[line.slice(0, eq)] = line.slice(eq + 1);
        if (line.startsWith('NODE_EXTRA_CA_CERTS=')) break;
      }
      expect(env.MDGET_HISTORICAL_URL).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/historical$/);
      expect(existsSync(env.NODE_EXTRA_CA_CERTS ?? '')).toBe(true);
      const run = await runCli(TICKS, { env });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout.split('\n')[0]).toBe('symbol,time,trading_day,session_code,price,size');
      const { NODE_EXTRA_CA_CERTS: _ca, ...untrusting } = env;
      const refused = await runCli(TICKS, { env: untrusting });
      expect(refused.code).toBe(5);
      expect(refused.stderr).toContain('TLS: cannot trust 127.0.0.1:');
    } finally {
      emulator.kill('SIGINT');
      await once(emulator, 'close');
    }
  });
});
