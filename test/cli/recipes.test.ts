import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT } from '../helpers/cli-env.js';
import { BIN, nodePath, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

const sh = promisify(execFile);
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The code block after `<!-- recipe:name -->` in the README. */
function recipe(name: string): string {
  const block = new RegExp(`<!-- recipe:${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!block?.[1]) throw new Error(`README has no recipe ${name}`);
  return block[1];
}

/** Every file under `dir` with its bytes, by relative path. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, 'latin1');
    }
  };
  walk(dir);
  return files;
}

/** Runs a shell command line with `mdget` meaning the built CLI, in `cwd`. */
const run = (line: string, cwd: string, env: Record<string, string>) =>
  sh('sh', ['-c', line.replace(/(^|\s)(npx )?mdget /g, `$1${BIN} `)], {
    cwd,
    env: { PATH: nodePath(), ...env },
    maxBuffer: 64 << 20,
  });

describe('README recipes, run as written', () => {
  it('cron: --update keeps a growing file and fetches only what is new', { timeout: 60_000 }, async () => {
    const line = recipe('cron').trim();
    const command = line
      .split(/\s+/)
      .slice(5)
      .join(' ')
      .replace(/^cd \S+ && /, '');
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      await run(command, dir, emu.env);
      const first = tree(dir);
      const before = emu.requests.length;
      await run(command, dir, emu.env);
      // the next day's run resumes at the last rows: a request or two, not the whole history again
      expect(emu.requests.length - before).toBeLessThanOrEqual(3);
      expect(before).toBeGreaterThan(10);
      expect(tree(dir)).toEqual(first);
      // its data runs to now: provisional, so a --skip-existing run would fetch it again; its memory is
      // what the next --update checks it against
      expect(Object.keys(first).sort()).toEqual([
        'bars/.AAPL-1m.csv.mdget.json',
        'bars/AAPL-1m.csv',
        'bars/AAPL-1m.csv.provisional',
      ]);
    });
  });

  it('CI matrix and Kubernetes Indexed Job: the shares add up to the whole, file for file', {
    timeout: 60_000,
  }, async () => {
    const ci = /run: (.*)/.exec(recipe('ci'))![1]!;
    const k8s = JSON.parse(/command: (\[.*\])/.exec(recipe('k8s'))![1]!) as string[];
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const whole = tempDir();
      await run(ci.replace(/ --shard .*$/, ''), whole, emu.env);
      const expected = tree(whole);
      expect(Object.keys(expected).filter((path) => !path.endsWith('.mdget.json'))).toHaveLength(10);
      const matrix = tempDir();
      for (const shard of [1, 2, 3, 4])
        await run(ci.replace('${{ matrix.shard }}', String(shard)), matrix, emu.env);
      expect(tree(matrix)).toEqual(expected);
      const pods = tempDir();
      const podLine = k8s[2]!.replaceAll('/data/', `${pods}/`);
      await Promise.all(
        [0, 1, 2, 3].map((index) => run(podLine, pods, { ...emu.env, JOB_COMPLETION_INDEX: String(index) })),
      );
      expect(tree(pods)).toEqual(expected);
    });
  });
});
