import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('architecture (STYLE §2-3)', () => {
  it('the library never exits, prints, reads the environment or imports the CLI or the emulator', () => {
    for (const file of files(join(root, 'src/core'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(
        /process\.exit|process\.env|console\.|from '\.\.\/(\.\.\/)?(cli|emulator)\//,
      );
    }
  });

  it('the emulator imports nothing from core or cli', () => {
    for (const file of files(join(root, 'src/emulator'))) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/from '\.\.\/(core|cli)\//);
    }
  });

  it('importing mdget registers no process handlers and prints nothing', async () => {
    const lib = pathToFileURL(join(root, 'dist/index.js')).href;
    // Node itself adds an 'exit' listener while top-level await runs: compare with a probe importing nothing.
    const probe = (target: string) =>
      `await import('${target}'); console.log(process.listenerCount('exit'), process.listenerCount('SIGINT'))`;
    const run = (code: string) => promisify(execFile)(process.execPath, ['--input-type=module', '-e', code]);
    const baseline = await run(probe('node:os'));
    const { stdout, stderr } = await run(probe(lib));
    expect([stdout.trim(), stderr]).toEqual([baseline.stdout.trim(), '']);
  });
});
