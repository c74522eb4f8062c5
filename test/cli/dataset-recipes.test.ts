import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NO_PROBES } from '../helpers/cli-env.js';
import { BIN, nodePath, tempDir } from '../helpers/run-cli.js';
import { DEBUG_ENV, withEmulator } from '../helpers/with-emulator.js';

const sh = promisify(execFile);
const RECIPES = readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8');
const NOW = '2025-03-13T23:00:00Z';

/** The code block after `<!-- recipe:name -->` in docs/recipes.md. */
function recipe(name: string): string {
  const block = new RegExp(`<!-- recipe:${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(RECIPES);
  if (!block?.[1]) throw new Error(`docs/recipes.md has no recipe ${name}`);
  return block[1];
}

const DATASET = `root = "data"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL", "MSFT", "IBM", "ZC*1"]
start = "2025-01-02"
end = "2025-03-13"
path = "eod/{symbol}.csv"

[[series]]
name = "es"
kind = "ticks"
symbols = ["ESM25", "NQM25"]
start = "2025-03-11"
end = "2025-03-13"
path = "ticks/{symbol}/{date}.csv.gz"

[reference]
exchanges = "reference/exchanges.csv"
`;

/** Runs a line with sh as a runner would, `mdget` (or `npx --yes mdget`) meaning the built CLI. */
const run = (line: string, cwd: string, env: Record<string, string>) =>
  sh('sh', ['-c', line.replace(/(^|\s|')(npx --yes )?mdget /g, `$1${BIN} `)], {
    cwd,
    env: { PATH: nodePath(), ...DEBUG_ENV, ...NO_PROBES, MDGET_NOW: NOW, ...env },
  });

function datasetDir(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'mdget.toml'), DATASET);
  return dir;
}

describe('docs/recipes.md, run as written', () => {
  it('the crontab line: its command, as cron runs it with sh, syncs and logs', async () => {
    await withEmulator({}, async (emu) => {
      const dir = datasetDir();
      const envFile = join(tempDir(), 'mdget.env');
      writeFileSync(
        envFile,
        Object.entries(emu.env)
          .map(([k, v]) => `${k}=${v}`)
          .join('\n'),
      );
      const [, command] = /^(?:\S+\s+){5}(.*)$/m.exec(recipe('cron').trim()) ?? [];
      expect(command).toContain('mdget sync');
      const line = (command ?? '').replace('/srv/market-data', dir).replace('/etc/mdget.env', envFile);
      await run(line, dir, {});
      expect(readFileSync(join(dir, 'sync.log'), 'utf8')).toMatch(/sync: 9 files fetched/);
      expect(existsSync(join(dir, 'data/.mdget/ledger.sqlite'))).toBe(true);
      await run(line, dir, {});
      expect(readFileSync(join(dir, 'sync.log'), 'utf8')).toMatch(
        /sync: 0 files fetched, 8 complete, 1 reference unchanged \(304\)/,
      );
    });
  }, 60_000);

  it('the GitHub Actions matrix: three shards, merged as the artifacts merge, then status and verify', async () => {
    await withEmulator({}, async (emu) => {
      const workflow = recipe('github-actions');
      const shardStep = /- run: (mdget sync --shard \$\{\{ matrix\.i \}\}\/3.*)$/m.exec(workflow)?.[1];
      const checkStep = /- run: (mdget status.*)$/m.exec(workflow)?.[1];
      const matrix = /i: \[([\d, ]+)\]/
        .exec(workflow)?.[1]
        ?.split(',')
        .map((s) => s.trim());
      expect(matrix).toEqual(['1', '2', '3']);
      const merged = datasetDir();
      for (const i of matrix ?? []) {
        const job = datasetDir();
        await run((shardStep ?? '').replace('${{ matrix.i }}', i), job, emu.env);
        // upload-artifact (include-hidden-files) then download-artifact (merge-multiple)
        cpSync(join(job, 'data'), join(merged, 'data'), { recursive: true });
      }
      expect(
        readdirSync(join(merged, 'data/.mdget'))
          .filter((n) => n.endsWith('.sqlite'))
          .sort(),
      ).toEqual(['ledger.1-of-3.sqlite', 'ledger.2-of-3.sqlite', 'ledger.3-of-3.sqlite']);
      // the check job has no credentials: status and verify need none
      const { stdout } = await run(checkStep ?? '', merged, {});
      expect(stdout).toMatch(/^complete$/m);
    });
  }, 60_000);

  it('the Kubernetes Indexed Job: three pods on one volume at once, then status and verify', async () => {
    await withEmulator({ latency: 20 }, async (emu) => {
      const job = recipe('kubernetes');
      const command = /command: \['sh', '-c', '(.*)'\]/.exec(job)?.[1];
      expect(command).toContain('$((JOB_COMPLETION_INDEX+1))/3');
      const volume = datasetDir();
      await Promise.all(
        [0, 1, 2].map((index) =>
          run(command ?? '', volume, { ...emu.env, JOB_COMPLETION_INDEX: String(index) }),
        ),
      );
      const { stdout } = await run(recipe('status').trim(), volume, {});
      expect(stdout).toMatch(/^complete$/m);
      expect(stdout).toMatch(/^daily\s+eod\s+4\s+4\s+0\s+0\s+0/m);
    });
  }, 60_000);
});
