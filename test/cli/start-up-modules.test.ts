import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/**
 * What a start loads, as the process itself shows it: a --require hook notes every file and package the bin
 * requires. The run (run.cjs: the scheduler, the pipeline, the writers, undici) comes with a command that
 * runs, never with --help or --dry-run; main.cjs requiring undici itself would show as `undici`.
 */
async function loaded(args: string[], env: Record<string, string>, dir: string): Promise<string[]> {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  const hook = join(dir, 'hook.cjs');
  writeFileSync(
    hook,
    `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (!request.startsWith('node:')) appendFileSync(${JSON.stringify(log)}, request + '\\n');
  return load.call(this, request, parent, isMain);
};
`,
  );
  writeFileSync(log, '');
  const run = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${hook}` }, cwd: dir });
  expect([run.code, run.stderr]).toEqual([0, '']);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const TICKS = ['ticks', 'ESM25', '--start', '2025-03-13', '-q'];

describe('start-up loads what the command uses', () => {
  it('--help and --dry-run load neither undici nor the run; a download loads them', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const heavy = (modules: string[]) => modules.filter((m) => m === 'undici' || m.endsWith('run.cjs'));
      const help = await loaded(['--help'], emu.env, dir);
      expect(help.some((m) => m.endsWith('main.cjs'))).toBe(true); // the hook saw the bin's own require
      expect(heavy(help)).toEqual([]);
      expect(heavy(await loaded(['ticks', '--help'], emu.env, dir))).toEqual([]);
      expect(heavy(await loaded([...TICKS, '--dry-run'], emu.env, dir))).toEqual([]);
      const download = await loaded([...TICKS, '-o', 'x.csv'], emu.env, dir);
      expect(download.some((m) => m.endsWith('run.cjs'))).toBe(true); // undici is bundled into it
    });
  });
});
