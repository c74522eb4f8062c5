import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT } from '../helpers/cli-env.js';
import { CANARY, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';
import { SERVICE_HOST, TINYPROXY, withProxy } from '../helpers/with-proxy.js';

const TICKS = ['ticks', 'ESM25', '--start', '2025-03-10', '--end', '2025-03-10T01:00', '--retries', '0'];

describe.skipIf(process.platform === 'win32')('a .env that holds the password', () => {
  it('warns once, naming the file and chmod 600, when group or others can read it', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      const file = join(dir, '.env');
      const lines = Object.entries(emu.env).filter(([name]) => name.startsWith('MDGET_'));
      writeFileSync(file, lines.map(([name, value]) => `${name}=${value}\n`).join(''));
      chmodSync(file, 0o644);
      const { PATH } = process.env;
      const run = await runMain(TICKS, { cwd: dir, env: { PATH: PATH ?? '' } });
      expect([run.code, run.stderr]).toEqual([
        0,
        `mdget: warning: ${file} holds MDGET_PASSWORD and other users can read it: chmod 600 ${file}\n`,
      ]);
      const named = await runMain(['config', '--env-file', file], { cwd: tempDir() });
      expect(named.stderr).toBe(
        `mdget: warning: ${file} holds MDGET_PASSWORD and other users can read it: chmod 600 ${file}\n`,
      );
      chmodSync(file, 0o600);
      const private_ = await runMain(TICKS, { cwd: dir });
      expect([private_.code, private_.stderr]).toEqual([0, '']);
      chmodSync(file, 0o644);
      writeFileSync(
        file,
        lines
          .filter(([name]) => name !== 'MDGET_PASSWORD')
          .map(([n, v]) => `${n}=${v}\n`)
          .join(''),
      );
      const noPassword = await runMain(TICKS, { cwd: dir, env: { MDGET_PASSWORD: CANARY } });
      expect([noPassword.code, noPassword.stderr]).toEqual([0, '']);
    });
  });
});

describe('credentials over http:// to another host', () => {
  it('mdget config warns for an http:// base URL that is not loopback, unless MDGET_ALLOW_HTTP=1', async () => {
    const env = {
      MDGET_USERNAME: 'tester',
      MDGET_PASSWORD: CANARY,
      MDGET_HISTORICAL_URL: 'http://data.example.org/historical',
      MDGET_FUTURES_OPTIONS_URL: 'https://data.example.org/fo',
    };
    const run = await runMain(['config'], { env });
    expect([run.code, run.stderr]).toEqual([
      0,
      'mdget: warning: the password goes unencrypted over http:// to data.example.org (MDGET_HISTORICAL_URL): use https:// (MDGET_ALLOW_HTTP=1 silences this)\n',
    ]);
    expect((await runMain(['config'], { env: { ...env, MDGET_ALLOW_HTTP: '1' } })).stderr).toBe('');
    const loopback = { ...env, MDGET_HISTORICAL_URL: 'http://localhost:8080/historical' };
    expect((await runMain(['config'], { env: loopback })).stderr).toBe('');
    const viaProxy = { ...loopback, HTTP_PROXY: 'http://proxy.example.org:3128' };
    expect((await runMain(['config'], { env: viaProxy })).stderr).toContain(
      'unencrypted over http:// to proxy http://proxy.example.org:3128',
    );
  });

  it.skipIf(!TINYPROXY)('a run warns once, however many requests it sends', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      await withProxy({}, async (proxy) => {
        const url = emu.env.MDGET_HISTORICAL_URL!.replace('127.0.0.1', SERVICE_HOST);
        const env = { ...emu.env, MDGET_HISTORICAL_URL: url, HTTP_PROXY: proxy.url };
        const run = await runMain([...TICKS, '--end', '2025-03-12'], { env });
        expect(emu.requests.length).toBeGreaterThan(1);
        expect([run.code, run.stderr]).toEqual([
          0,
          `mdget: warning: the password goes unencrypted over http:// to ${new URL(url).host} (MDGET_HISTORICAL_URL): use https:// (MDGET_ALLOW_HTTP=1 silences this)\n`,
        ]);
        expect(run.stdout + run.stderr).not.toContain(CANARY);
      });
    });
  });
});
