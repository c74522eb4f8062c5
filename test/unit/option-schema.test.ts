import { describe, expect, it } from 'vitest';
import { COMMANDS, CONFIG_OPTIONS } from '../../src/cli/command-table.js';
import { flagNames } from '../../src/cli/flag-names.js';
import { flagOf, OPTIONS, type OptionName, type OptionSpec } from '../../src/cli/options.js';
import { keyPathOf, seriesOptions } from '../../src/core/dataset/series-options.js';
import {
  CLIENT_KEYS,
  libraryName,
  OPTION_ROWS,
  type OptionRow,
  optionRowOf,
  SETTINGS_KEYS,
} from '../../src/core/model/option-schema.js';

const ROWS = OPTION_ROWS as readonly OptionRow[];
const DOWNLOADS = COMMANDS.filter((command) => command.section === 'download');

/** Every long flag a download command takes, and the service parameters' flags apart. */
function downloadFlags(): { flags: Set<string>; params: Set<string> } {
  const flags = new Set<string>();
  const params = new Set<string>();
  for (const command of DOWNLOADS) {
    const names: readonly OptionName[] = [
      ...command.options,
      ...(('accepts' in command ? command.accepts : undefined) ?? []),
      ...CONFIG_OPTIONS,
    ];
    for (const name of names) flags.add(flagOf(name));
    for (const spec of command.params ?? []) params.add(spec.flag);
  }
  return { flags, params };
}

describe('the option table: one row per download option, read by every surface', () => {
  it('every download flag has a dataset place and a library name, or says why the CLI alone has it', () => {
    const { flags } = downloadFlags();
    const missing = [...flags].filter((flag) => optionRowOf(flag) === undefined);
    expect(missing).toEqual([]);
    for (const flag of flags) {
      const row = optionRowOf(flag) as OptionRow;
      const place = row.toml as Record<string, unknown>;
      expect(place['options'] ?? place['setBy'] ?? place['elsewhere'], flag).toBeTruthy();
      const library = row.library as Record<string, string>;
      expect(libraryName(row) ?? library['cliOnly'], flag).toMatch(/\w/);
    }
    // and no row for a flag nothing takes
    expect(ROWS.map((row) => row.flag).filter((flag) => !flags.has(flag))).toEqual([]);
    expect(optionRowOf('password-stdin')?.library).toEqual({
      cliOnly: 'the library takes the password in its config',
    });
  });

  it("the CLI's parsers keep the rows' bounds; its messages name the rows' flags", () => {
    for (const row of ROWS.filter((r) => r.bounds)) {
      const spec = Object.values(OPTIONS).find(
        (s, i) => ((s as OptionSpec).flag ?? Object.keys(OPTIONS)[i]) === row.flag,
      ) as OptionSpec;
      expect([spec.min, spec.max], row.flag).toEqual([row.bounds?.min, row.bounds?.max]);
    }
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
