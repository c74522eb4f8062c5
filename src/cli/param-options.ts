import { InvalidArgumentError, Option } from 'commander';
import { optionKey, type ParamSpec } from '../core/params.js';

/** A commander Option for a parameter row: choices, integer ranges and patterns checked at parse time. */
export function optionFor(spec: ParamSpec): Option {
  const metavar = spec.metavar ?? (spec.kind === 'int' ? 'n' : spec.kind === 'date' ? 'date' : 'value');
  const flags = spec.kind === 'flag' ? `--${spec.flag}` : `--${spec.flag} <${metavar}>`;
  const option = new Option(flags, spec.help);
  if (spec.choices) option.choices(spec.choices);
  if (spec.kind === 'int')
    option.argParser((value: string) => parseIntFlag(value, `--${spec.flag}`, spec.min, spec.max));
  if (spec.kind === 'string' && spec.pattern) {
    const { pattern, form } = spec;
    option.argParser((value: string) => {
      if (!pattern.test(value)) throw new InvalidArgumentError(`expected ${form ?? pattern.source}.`);
      return value;
    });
  }
  return option;
}

/** Parses a whole number within [min, max] for a flag, or throws commander's invalid-argument error. */
export function parseIntFlag(value: string, flag: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${max}`;
    throw new InvalidArgumentError(`${flag} takes ${range}.`);
  }
  return n;
}

/** The commander options key of a row (commander camel-cases flags the same way). */
export const keyOf = (spec: ParamSpec): string => optionKey(spec.flag);
