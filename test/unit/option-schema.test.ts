import { describe, expect, it } from 'vitest';
import { COMMANDS, CONFIG_OPTIONS } from '../../src/cli/command-table.js';
import { flagNames } from '../../src/cli/flag-names.js';
import { OPTIONS, type OptionName } from '../../src/cli/options.js';
import { createClient } from '../../src/core/client.js';
import { keyPathOf, seriesOptions } from '../../src/core/dataset/series-options.js';
import { LIMITS } from '../../src/core/model/defaults.js';
import {
  CLIENT_KEYS,
  libraryName,
  OPTION_ROWS,
  type OptionRow,
  optionRowOf,
  SETTINGS_KEYS,
} from '../../src/core/model/option-schema.js';
import { runMain } from '../helpers/run-cli.js';

const ROWS = OPTION_ROWS as readonly OptionRow[];
const DOWNLOADS = COMMANDS.filter((command) => command.section === 'download');

/**
 * The CLI's options that are no row of the option table, each with why: adding a download option is one
 * row of core/model/option-schema.ts, so a name added here must be an option no download takes.
 */
const NOT_DOWNLOAD_OPTIONS: Record<string, string> = {
  // a command's own variant of a download flag
  'file-output': 'exchanges and instruments: -o without a template',
  'futopts-format': 'futopts: --format with --json',
  'exchanges-format': 'exchanges: --format of a list',
  'instruments-format': 'instruments: --format of the profile tables',
  'sync-dry-run': 'sync: --dry-run lists files, not requests',
  'sync-shard': "sync: --shard shares the dataset's files",
  'status-metrics': 'status: --metrics prints gauges',
  // the reference commands' own
  find: 'exchanges',
  table: 'instruments',
  'from-capture': 'instruments',
  // the emulator's own
  port: 'emulator',
  set: 'emulator',
  'help-options': 'emulator',
  tls: 'emulator',
  // the dataset commands' own
  repair: 'sync',
  wait: 'sync',
  json: 'status and verify',
};

/** Every option a download command takes, by its name in the CLI's table, and its parameters' flags. */
function downloadOptions(): { names: Set<OptionName>; params: Set<string> } {
  const names = new Set<OptionName>();
  const params = new Set<string>();
  for (const command of DOWNLOADS) {
    for (const name of [
      ...command.options,
      ...(('accepts' in command ? command.accepts : undefined) ?? []),
      ...CONFIG_OPTIONS,
    ])
      names.add(name);
    for (const spec of command.params ?? []) params.add(spec.flag);
  }
  return { names, params };
}

describe('the option table: one row per download option, read by every surface', () => {
  it("every download option is a row, a service parameter, or a command's own variant", () => {
    const { names, params } = downloadOptions();
    const stray = [...names].filter((name) => optionRowOf(name) === undefined);
    expect(stray).toEqual(['futopts-format']);
    expect([...params].filter((flag) => optionRowOf(flag) !== undefined)).toEqual([]);
    // and no row for a flag nothing takes
    expect(ROWS.map((row) => row.flag).filter((flag) => !names.has(flag as OptionName))).toEqual([]);
  });

  it('every row has its place in a dataset file, its library name or why the CLI alone has it, help and a group', () => {
    for (const row of ROWS) {
      const place = row.toml as Record<string, unknown>;
      expect(place['options'] ?? place['setBy'] ?? place['elsewhere'], row.flag).toBeTruthy();
      const library = row.library as Record<string, string>;
      expect(libraryName(row) ?? library['cliOnly'], row.flag).toMatch(/\w/);
      expect(row.help, row.flag).toMatch(/\w/);
      expect(row.group, row.flag).toMatch(/^[a-z]+$/);
    }
    expect(optionRowOf('password-stdin')?.library).toEqual({
      cliOnly: 'the library takes the password in its config',
    });
  });

  it("is the CLI's option table: a row is its flag's option, and nothing else in it is a download option", () => {
    const table = OPTIONS as Record<string, unknown>;
    for (const row of ROWS) expect(table[row.flag], row.flag).toBe(row);
    const rest = Object.keys(OPTIONS).filter((name) => optionRowOf(name) === undefined);
    expect(rest.sort()).toEqual(Object.keys(NOT_DOWNLOAD_OPTIONS).sort());
  });

  it("the command line and the library keep a row's bounds; messages name the rows' flags", async () => {
    expect(ROWS.filter((row) => row.min !== undefined).map((row) => row.flag)).toEqual([
      'max-rows',
      'concurrency',
      'retries',
    ]);
    const usage = async (flag: string, value: number) => {
      const run = await runMain(['ticks', 'ESM25', '--start', '2025-03-13', `--${flag}=${value}`]);
      return [run.code, run.stderr.trim()];
    };
    const { concurrency, retries, maxRows } = LIMITS;
    expect(await usage('concurrency', 0)).toEqual([
      2,
      `mdget: --concurrency takes a whole number from ${concurrency.min} to ${concurrency.max}, not '0'`,
    ]);
    expect(await usage('retries', retries.max + 1)).toEqual([
      2,
      `mdget: --retries takes a whole number from ${retries.min} to ${retries.max}, not '${retries.max + 1}'`,
    ]);
    expect(await usage('max-rows', 0)).toEqual([
      2,
      `mdget: --max-rows takes a whole number ≥ ${maxRows.min}, not '0'`,
    ]);
    expect(() => createClient({}, { retries: retries.max + 1 })).toThrow(
      `retries takes a whole number from ${retries.min} to ${retries.max}, not '${retries.max + 1}'`,
    );
    expect(() => createClient({}, { maxRows: 0 })).toThrow("maxRows takes a whole number ≥ 1, not '0'");
    expect(
      ['windowMs', 'sourceTimeZone', 'extra', 'header', 'fsync', 'output', 'maxRows'].map((o) =>
        flagNames(o),
      ),
    ).toEqual(['--window', '--source-tz', '--param', '--no-header', '--no-fsync', '-o', '--max-rows']);
  });

  it("a dataset's options table takes the rows it may set, refuses the others with where they belong", () => {
    const key = (flag: string) => `options.${flag}`;
    expect(
      seriesOptions(
        'ticks',
        {
          window: '2h',
          columns: 'time,price',
          'no-header': true,
          'source-tz': 'America/Chicago',
          'max-rows': 100,
          compression: 'snappy',
          param: { x: 1 },
          order: 'desc',
        },
        key,
      ),
    ).toEqual({
      windowMs: 7_200_000,
      columns: ['time', 'price'],
      header: false,
      sourceTimeZone: 'America/Chicago',
      maxRows: 100,
      compression: 'snappy',
      extra: [['x', '1']],
      order: 'desc',
    });
    expect(() => seriesOptions('ticks', { retries: 2 }, key)).toThrow(
      'options.retries: set by the command line (mdget sync --retries), not in options',
    );
    expect(() => seriesOptions('ticks', { format: 'csv' }, key)).toThrow(
      'options.format: set by the extension of path, not in options',
    );
    expect(['timeZone', 'gzip', 'windowMs', 'header', 'interval', 'date'].map(keyPathOf)).toEqual([
      ['tz'],
      ['path'],
      ['options', 'window'],
      ['options', 'no-header'],
      ['options', 'interval'],
      ['start'],
    ]);
  });

  it("the library's keys are the rows' library names", () => {
    expect(SETTINGS_KEYS).toEqual(
      expect.arrayContaining(['format', 'concurrency', 'windowMs', 'timeZone', 'signal', 'metrics']),
    );
    expect(SETTINGS_KEYS).not.toContain('output');
    expect(CLIENT_KEYS).toEqual(
      expect.arrayContaining(['retries', 'timeoutMs', 'rate', 'proxy', 'ca', 'maxRows']),
    );
  });
});
