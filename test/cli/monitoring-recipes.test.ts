import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT, NO_PROBES } from '../helpers/cli-env.js';
import { expectPromtoolAccepts, PROMTOOL, promtoolTestRules, samplesOf } from '../helpers/promtool.js';
import { BIN, CANARY, nodePath, tempDir } from '../helpers/run-cli.js';
import { DEBUG_ENV, withEmulator } from '../helpers/with-emulator.js';

const sh = promisify(execFile);
const RECIPES = readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8');

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
symbols = ["AAPL", "MSFT"]
start = "2025-03-03"
end = "now"
path = "eod/{symbol}.csv"
`;

describe('docs/recipes.md#monitoring, run as written', () => {
  it('the crontab line: a metrics file promtool accepts, JSON lines, the success kept over a failed night', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const textfiles = join(tempDir(), 'node-exporter');
      mkdirSync(textfiles);
      const envFile = join(tempDir(), 'mdget.env');
      writeFileSync(
        envFile,
        Object.entries(emu.env)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
      );
      const [, command] = /^(?:\S+\s+){5}(.*)$/m.exec(recipe('cron-metrics').trim()) ?? [];
      const line = (command ?? '')
        .replace('/srv/market-data', dir)
        .replace('/etc/mdget.env', envFile)
        .replace('/var/lib/prometheus/node-exporter', textfiles)
        .replace(/(^|\s)mdget /, `$1${BIN} `);
      const night = (now: string) =>
        sh('sh', ['-c', line], {
          env: { PATH: nodePath(), ...DEBUG_ENV, ...NO_PROBES, MDGET_NOW: now },
        }).then(
          () => 0,
          (error: { code: number }) => error.code,
        );
      const job = `{command="sync",mdget_job="${join(dir, 'mdget.toml')}"}`;
      const metrics = () => {
        const text = readFileSync(join(textfiles, 'mdget-sync.prom'), 'utf8');
        expectPromtoolAccepts(text);
        return samplesOf(text);
      };
      const lastLine = () =>
        JSON.parse(readFileSync(join(dir, 'sync.jsonl'), 'utf8').trim().split('\n').at(-1) ?? '');

      expect(await night('2025-03-13T23:00:00Z')).toBe(0);
      expect(metrics().get(`mdget_last_success_timestamp_seconds${job}`)).toBe(
        Date.parse('2025-03-13T23:00:00Z') / 1000,
      );
      expect(lastLine()).toMatchObject({ level: 'info', exit: 0 });

      // refused, so not retried: the night fails at once
      emu.options.faults = [{ kind: 'status', status: 404 }];
      expect(await night('2025-03-14T23:00:00Z')).toBe(4);
      const failed = metrics();
      expect(failed.get(`mdget_last_run_exit_code${job}`)).toBe(4);
      expect(failed.get(`mdget_last_success_timestamp_seconds${job}`)).toBe(
        Date.parse('2025-03-13T23:00:00Z') / 1000,
      );
      expect(lastLine()).toMatchObject({ level: 'error', code: 'MDGET_SERVICE', exit: 4 });
      expect(readFileSync(join(dir, 'sync.jsonl'), 'utf8')).not.toContain(CANARY);
    });
  });

  it.skipIf(!PROMTOOL)('the alerting rules: promtool test rules over a week of samples', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'rules.yml'), recipe('alert-rules'));
    writeFileSync(join(dir, 'test.yml'), RULES_TEST);
    expect(promtoolTestRules(join(dir, 'test.yml'))).toContain('SUCCESS');
  });
});

// Time 0 of a rules test is 1970-01-01 00:00 UTC, a Thursday. The sync last succeeded at 01:00; series es
// is complete through Friday the 2nd, nq through Monday the 5th. Sunday noon (84h) and Monday noon (108h)
// look back to Thursday, Tuesday noon (132h) to Friday, Wednesday noon (156h) to Monday.
const JOB = 'mdget_job: /srv/market-data/mdget.toml';
const RULES_TEST = `rule_files: [rules.yml]
evaluation_interval: 1h
tests:
  - interval: 1h
    input_series:
      - series: 'mdget_last_success_timestamp_seconds{command="sync",mdget_job="/srv/market-data/mdget.toml"}'
        values: '3600+0x300'
      - series: 'mdget_series_newest_complete_timestamp_seconds{command="sync",mdget_job="/srv/market-data/mdget.toml",series="es"}'
        values: '86400+0x300'
      - series: 'mdget_series_newest_complete_timestamp_seconds{command="sync",mdget_job="/srv/market-data/mdget.toml",series="nq"}'
        values: '345600+0x300'
    alert_rule_test:
      - { eval_time: 36h, alertname: MdgetNotSucceeded, exp_alerts: [] }
      - eval_time: 38h
        alertname: MdgetNotSucceeded
        exp_alerts:
          - exp_labels: { severity: warning, command: sync, ${JOB} }
            exp_annotations:
              summary: 'mdget sync /srv/market-data/mdget.toml has not succeeded for 36 hours'
      - { eval_time: 84h, alertname: MdgetSeriesBehind, exp_alerts: [] }
      - { eval_time: 108h, alertname: MdgetSeriesBehind, exp_alerts: [] }
      - { eval_time: 132h, alertname: MdgetSeriesBehind, exp_alerts: [] }
      - eval_time: 156h
        alertname: MdgetSeriesBehind
        exp_alerts:
          - exp_labels: { severity: warning, command: sync, ${JOB}, series: es }
            exp_annotations:
              summary: 'series es of /srv/market-data/mdget.toml: its newest complete day is older than two trading days'
`;
