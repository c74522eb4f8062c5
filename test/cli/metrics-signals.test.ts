import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT } from '../helpers/cli-env.js';
import { expectPromtoolAccepts, samplesOf } from '../helpers/promtool.js';
import { BIN, CANARY, nodePath, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A stop signal is what only a process shows: these start the built CLI.
describe('a run stopped by a signal still writes its metrics file', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s → exit %i in the file, the last success carried over, JSON lines intact',
    async (signal, status) => {
      await withEmulator({ ...CANARY_ACCOUNT, faults: [{ kind: 'slow', delayMs: 5000 }] }, async (emu) => {
        const dir = tempDir();
        const metrics = join(dir, 'm.prom');
        writeFileSync(
          metrics,
          'mdget_last_success_timestamp_seconds{command="ticks",mdget_job="m"} 1741986000\n',
        );
        const child = spawn(
          BIN,
          ['ticks', 'ESM25', '--start', '2025-03-13', '-o', join(dir, 'x.csv'), '--metrics-file', metrics],
          { env: { PATH: nodePath(), ...emu.env, MDGET_LOG_FORMAT: 'json' } },
        );
        let stderr = '';
        child.stderr.on('data', (c) => (stderr += c));
        while (emu.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
        child.kill(signal);
        const code = await new Promise((resolve) => child.on('close', resolve));
        expect(code).toBe(status);
        expect(readdirSync(dir).sort()).toEqual(['m.prom']);
        expect(stderr).not.toContain(CANARY);
        for (const line of stderr.split('\n').slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();
        const text = readFileSync(metrics, 'utf8');
        expectPromtoolAccepts(text);
        const m = samplesOf(text);
        const l = '{command="ticks",mdget_job="m"}';
        expect(m.get(`mdget_last_run_exit_code${l}`)).toBe(status);
        expect(m.get(`mdget_last_success_timestamp_seconds${l}`)).toBe(1741986000);
        expect(m.get(`mdget_files_written_total${l}`)).toBe(0);
      });
    },
  );
});
