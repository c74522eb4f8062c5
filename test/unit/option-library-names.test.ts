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
import type { OPTION_ROWS } from '../../src/core/model/option-schema.js';
import type { OutputOptions, RunOptions, SymbolsQuery } from '../../src/core/model/options.js';

type Place = (typeof OPTION_ROWS)[number]['library'];
/** The library names the rows give in one place (`settings`, `client`, ...). */
type NamesIn<K extends string> = Extract<Place, Record<K, string>>[K &
  keyof Extract<Place, Record<K, string>>];

/** `true` when nothing is left over, else the leftovers: `true` does not fit them, and the error names them. */
type NoneLeft<T> = [T] extends [never] ? true : { leftOver: T };

/**
 * What download() takes but no flag gives: a signal (the CLI's run has its own). `metrics` is a row's
 * (--metrics-file), a field of DownloadSettings but not of the CLI's OutputOptions & RunOptions.
 */
type SettingsWithoutRow = 'signal';
type SettingsFields = keyof (OutputOptions & RunOptions & DownloadSettings);

describe("the rows' library names are the library's fields", () => {
  it('ties them at compile time (npm run typecheck is the check; this only runs it)', () => {
    const settingsRowsHaveFields: NoneLeft<Exclude<NamesIn<'settings'>, SettingsFields>> = true;
    const settingsFieldsHaveRows: NoneLeft<
      Exclude<SettingsFields, NamesIn<'settings'> | SettingsWithoutRow>
    > = true;
    // createClient also takes what only a library has (dispatcher, listeners, now, ca; CLIENT_KEYS)
    const clientRowsHaveFields: NoneLeft<Exclude<NamesIn<'client'>, keyof ClientOptions>> = true;
    // Config also holds maxRows, a settings row the CLI resolves with the configuration
    const configRowsHaveFields: NoneLeft<Exclude<NamesIn<'config'>, keyof Config>> = true;
    const queryRowsHaveFields: NoneLeft<Exclude<NamesIn<'query'>, keyof SymbolsQuery>> = true;
    expect([
      settingsRowsHaveFields,
      settingsFieldsHaveRows,
      clientRowsHaveFields,
      configRowsHaveFields,
      queryRowsHaveFields,
    ]).toEqual([true, true, true, true, true]);
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
