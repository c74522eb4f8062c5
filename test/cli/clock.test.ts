import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, nodePath, runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const NOW = '2025-06-04T21:00:00.000Z';

/** The .env lines `mdget emulator args` prints before it serves; it is stopped by SIGINT once it listens. */
function emulatorLines(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['emulator', ...args], { env: { PATH: nodePath() } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) child.kill('SIGINT');
    });
    child.on('error', reject);
    child.on('close', () => resolve(stdout));
  });
}

describe('one clock for the emulator and mdget', () => {
  it('mdget emulator prints MDGET_NOW among its .env lines when its clock is set, only then', async () => {
    const [fixed, live] = await Promise.all([emulatorLines(['--set', `now=${NOW}`]), emulatorLines([])]);
    expect(fixed).toMatch(/^MDGET_HISTORICAL_URL=http:\/\/127\.0\.0\.1:\d+/m);
    expect(fixed.split('\n').filter((line) => line.startsWith('MDGET_NOW='))).toEqual([`MDGET_NOW=${NOW}`]);
    expect(live).toMatch(/^MDGET_HISTORICAL_URL=/m);
    expect(live).not.toMatch(/MDGET_NOW/);
  });

  it('MDGET_NOW in an --env-file fixes the clock as the environment does; mdget config shows it', async () => {
    await withEmulator({ now: new Date(NOW) }, async (emu) => {
      const dir = tempDir();
      const file = join(dir, 'emulator.env');
      const lines = Object.entries({ ...emu.env, MDGET_NOW: NOW }).map(([k, v]) => `${k}=${v}\n`);
      writeFileSync(file, lines.join(''));
      const plan = [
        'minutes',
        'AAPL',
        '--start',
        '3d',
        '--end',
        'tomorrow',
        '--window',
        '1d',
        '--dry-run',
        '-q',
      ];
      const [fromFile, fromEnv, config] = await Promise.all([
        runMain([...plan, '--env-file', file], { cwd: dir }),
        runMain(plan, { env: { ...emu.env, MDGET_NOW: NOW }, cwd: dir }),
        runMain(['config', '--env-file', file], { cwd: dir }),
      ]);
      expect([fromFile.code, fromFile.stderr]).toEqual([0, '']);
      // 1 to 4 June: the days before the fixed "now" and its own, not the machine's
      expect(fromFile.stdout.match(/start=\d+/g)).toEqual([
        'start=20250601',
        'start=20250602',
        'start=20250603',
        'start=20250604',
      ]);
      expect(fromFile.stdout).toBe(fromEnv.stdout);
      expect(config.stdout).toMatch(
        new RegExp(`^MDGET_NOW +${NOW.replaceAll('.', '\\.')} +dotenv ${file}$`, 'm'),
      );
      expect(emu.requests).toHaveLength(0);
    });
  });

  it('mdget config says when the clock is the machine one; sync --help names MDGET_NOW', async () => {
    const [config, help] = await Promise.all([runMain(['config']), runMain(['sync', '--help'])]);
    expect(config.stdout).toMatch(/^MDGET_NOW +\(unset\) +unset$/m);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('MDGET_NOW fixes');
  });
});
