import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodePath, runShell, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');

describe('README snippets run as written', () => {
  it('the awk recipe passes no header row, only rows of 10 or more', async () => {
    const line = /^ {4}(mdget ticks .*\| awk .*)$/m.exec(README)?.[1];
    expect(line).toBeDefined();
    await withEmulator({}, async (emu) => {
      const run = await runShell((line ?? '').replace(/^mdget /, '"$MDGET" '), emu.env);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const rows = run.stdout.trim().split('\n');
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(Number(row.split(',')[2])).toBeGreaterThanOrEqual(10);
    });
  });

  it('the library snippet prints bars from the emulator at the URL it printed', async () => {
    const code = /```js\n(import \{ createClient \} from 'mdget';[\s\S]*?)```/.exec(README)?.[1];
    expect(code).toBeDefined();
    // a project where `mdget` is this package, as npm would link it
    const project = tempDir();
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules/mdget'));
    writeFileSync(join(project, 'snippet.mjs'), code ?? '');
    await withEmulator({}, async (emu) => {
      const env = { PATH: nodePath(), MDGET_HISTORICAL_URL: emu.env.MDGET_HISTORICAL_URL ?? '' };
      const out = await new Promise<{ error: Error | null; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, ['snippet.mjs'], { cwd: project, env }, (error, stdout, stderr) =>
          resolve({ error, stdout, stderr }),
        ),
      );
      expect([out.error, out.stderr]).toEqual([null, '']);
      expect(out.stdout.trim().split('\n')).toHaveLength(3);
      expect(out.stdout).toMatch(/^AAPL 2025-03-14/m);
    });
  });

  it('no recipe installs mdget by name from the registry (it is not published there)', () => {
    // the prose may name the risk in `code`; a command may not
    for (const path of ['README.md', 'docs/recipes.md', 'docs/dataset.md', 'docs/cli.md']) {
      const text = read(path);
      expect([
        path,
        text.match(/(?<!`)(npx (--yes )?mdget|npm (install|i) (-g |--global )?mdget\b)/g),
      ]).toEqual([path, null]);
    }
  });
});
