/**
 * The types of parsed flags, derived from the option and parameter tables: a flag mapper reads typed
 * values (no casts), and a flag added to a table shows up in the types of every command that takes it.
 * flagKeyOf is the key commander stores a flag under, for code that walks the rows.
 */
import { type CamelCase, optionKey, type ParamSpec, type ParamValue } from '../core/model/params.js';
import type { COMMANDS, CONFIG_OPTIONS, CommandName } from './command-table.js';
import type { OPTIONS, OptionName } from './options.js';

/** An i/n share of a plan (--shard). */
export interface Shard {
  index: number;
  count: number;
}

type Spec<N extends OptionName> = (typeof OPTIONS)[N];

/** The key commander stores a flag under: '--skip-existing' → skipExisting, '--no-header' → header. */
export type FlagKey<F extends string> = F extends `no-${infer Rest}` ? CamelCase<Rest> : CamelCase<F>;

/** FlagKey at run time ('no-fsync' → 'fsync'). */
export const flagKeyOf = <F extends string>(flag: F): FlagKey<F> =>
  // a template literal type has no runtime counterpart to infer it from: optionKey computes the same text
  optionKey(flag.startsWith('no-') ? flag.slice(3) : flag) as FlagKey<F>;

type LongFlag<N extends OptionName> = Spec<N> extends { flag: infer F extends string } ? F : N;

type OptionValue<S> = S extends { repeatable: true }
  ? string[]
  : S extends { value: string }
    ? S extends { kind: 'int' | 'duration' | 'rate' }
      ? number
      : S extends { kind: 'list' }
        ? string[]
        : S extends { kind: 'shard' }
          ? Shard
          : S extends { choices: readonly (infer C)[] }
            ? C
            : string
    : boolean;

/** The parsed values of a set of options; every one may be absent (defaults are the mappers' business). */
export type OptionFlags<N extends OptionName> = {
  [K in N as FlagKey<LongFlag<K>>]?: OptionValue<Spec<K>>;
};

/** The parsed values of a parameter table's flags: dates stay text until the symbol's zone is known. */
export type ParamFlags<T extends readonly ParamSpec[]> = {
  [S in T[number] as CamelCase<S['flag']>]?: ParamValue<S, string>;
};

type Entry<C extends CommandName> = Extract<(typeof COMMANDS)[number], { name: C }>;
type EntryOptions<C extends CommandName> = Entry<C>['options'][number];
type EntryAccepts<C extends CommandName> =
  Entry<C> extends { accepts: readonly (infer A)[] } ? A & OptionName : never;
type EntryParams<C extends CommandName> =
  Entry<C> extends { params: infer P extends readonly ParamSpec[] } ? ParamFlags<P> : unknown;

/** Everything a command's action receives from commander: its options, accepted ones, parameters. */
export type FlagsOf<C extends CommandName> = OptionFlags<EntryOptions<C> | EntryAccepts<C>> &
  OptionFlags<ConfigOption> &
  EntryParams<C>;

/** Configuration flags, accepted by every command. */
export type ConfigOption = (typeof CONFIG_OPTIONS)[number];

/** The configuration flags as parsed, with --max-rows (config.ts resolves them against the environment). */
export type ConfigFlags = OptionFlags<ConfigOption | 'max-rows'>;
