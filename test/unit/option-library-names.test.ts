/**
 * The rows' library names and the library's hand-written interfaces (kept for their JSDoc) name the same
 * options: the ties below are types, so `npm run typecheck` fails on a row whose name the interface
 * lacks, or on an interface field no row gives, and the error names it.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-table.js';
import { type FlagKey, flagKeyOf } from '../../src/cli/flags.js';
import { buildProgram } from '../../src/cli/program.js';
import type { ClientOptions, DownloadSettings } from '../../src/core/client.js';
import type { Config } from '../../src/core/model/config.js';
import { CLIENT_KEYS, OPTION_ROWS, type OptionRow } from '../../src/core/model/option-schema.js';
import type { OutputOptions, RunOptions, SymbolsQuery } from '../../src/core/model/options.js';

type NameIn<P, K extends string> = P extends Record<K, infer N extends string> ? N : never;
/** The library names the rows give in one place (`settings`, `client`, ...). */
type NamesIn<K extends string> = NameIn<(typeof OPTION_ROWS)[number]['library'], K>;

/** `true` when nothing is left over, else the leftovers: `true` does not fit them, and the error names them. */
type NoneLeft<T> = [T] extends [never] ? true : { leftOver: T };

/**
 * What download() takes but no flag gives: a signal (the CLI's run has its own). `metrics` is a row's
 * (--metrics-file), a field of DownloadSettings but not of the CLI's OutputOptions & RunOptions.
 */
type SettingsWithoutRow = 'signal';
type SettingsFields = keyof (OutputOptions & RunOptions & DownloadSettings);

/** createClient's options that no flag gives (maxRows is a settings row, which the CLI resolves as config). */
const CLIENT_WITHOUT_ROW = ['maxRows', 'dispatcher', 'listeners', 'now', 'ca'] as const;
/** The configuration keys no config row gives: maxRows is the max-rows settings row. */
type ConfigWithoutRow = 'maxRows';

describe("the rows' library names are the library's fields", () => {
  it('ties them at compile time (npm run typecheck is the check; this only runs it)', () => {
    const settingsRowsHaveFields: NoneLeft<Exclude<NamesIn<'settings'>, SettingsFields>> = true;
    const settingsFieldsHaveRows: NoneLeft<
      Exclude<SettingsFields, NamesIn<'settings'> | SettingsWithoutRow>
    > = true;
    const clientRowsHaveFields: NoneLeft<Exclude<NamesIn<'client'>, keyof ClientOptions>> = true;
    const clientFieldsHaveRows: NoneLeft<
      Exclude<keyof ClientOptions, NamesIn<'client'> | (typeof CLIENT_WITHOUT_ROW)[number]>
    > = true;
    const configRowsHaveFields: NoneLeft<Exclude<NamesIn<'config'>, keyof Config>> = true;
    const configFieldsHaveRows: NoneLeft<Exclude<keyof Config, NamesIn<'config'> | ConfigWithoutRow>> = true;
    const queryRowsHaveFields: NoneLeft<Exclude<NamesIn<'query'>, keyof SymbolsQuery>> = true;
    expect([
      settingsRowsHaveFields,
      settingsFieldsHaveRows,
      clientRowsHaveFields,
      clientFieldsHaveRows,
      configRowsHaveFields,
      configFieldsHaveRows,
      queryRowsHaveFields,
    ]).toEqual(Array(7).fill(true));
  });

  it('createClient checks its options against every field of ClientOptions, no more', () => {
    const rows = OPTION_ROWS as readonly OptionRow[];
    const clientRows = rows.flatMap((row) => ('client' in row.library ? [row.library.client] : []));
    expect([...CLIENT_KEYS].sort()).toEqual([...clientRows, ...CLIENT_WITHOUT_ROW].sort());
  });

  it('flagKeyOf is the key commander stores every option under, as FlagKey types it', () => {
    const header: FlagKey<'no-header'> = flagKeyOf('no-header');
    const skip: 'skipExisting' = flagKeyOf('skip-existing');
    expect([header, skip]).toEqual(['header', 'skipExisting']);
    const options = buildProgram({} as never, COMMANDS).commands.flatMap((command) => command.options);
    expect(options.length).toBeGreaterThan(100);
    for (const option of options)
      expect(flagKeyOf(option.long?.slice(2) ?? ''), option.flags).toBe(option.attributeName());
  });
});
