/**
 * The option values the CLI reads from text: whole numbers, durations, rates, lists and shares. Each
 * error names the flag and the accepted form in one line (docs/cli.md#guarantees); nothing is sent after one.
 */

import { parseDuration } from '../core/model/durations.js';
import { usageError } from '../core/model/errors.js';
import type { ValueKind } from '../core/model/option-schema.js';

/** How a value of `kind` is read, with its bounds. */
export interface ValueRule {
  kind?: ValueKind;
  min?: number;
  max?: number;
}

/** The value of `flag` as its kind says: a number, a list, a share; MDGET_USAGE naming the accepted form. */
export function parseValue(rule: ValueRule, flag: string, text: string): unknown {
  switch (rule.kind ?? 'string') {
    case 'int':
      return parseWholeNumber(text, flag, rule.min, rule.max);
    case 'duration':
      return parseDuration(text, flag);
    case 'rate':
      return parseRate(text, flag);
    case 'list':
      return text.split(',').map((item) => item.trim());
    case 'shard':
      return parseShard(text, flag);
    case 'string':
      return text;
  }
}

/** A whole number within [min, max]. */
export function parseWholeNumber(text: string, flag: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${max}`;
    throw usageError(`${flag} takes ${range}, not '${text}'`);
  }
  return n;
}

/** Requests per second from `5`, `5/s`, `0.5/s`, `120/m` or `3600/h`. */
function parseRate(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(?:\/(s|m|h))?$/.exec(text.trim());
  const rate = m ? Number(m[1]) / (m[2] === 'm' ? 60 : m[2] === 'h' ? 3600 : 1) : Number.NaN;
  if (!(rate > 0)) {
    throw usageError(
      `${flag} '${text}': expected requests per second: a number, optionally with /s, /m or /h (5, 0.5/s, 120/m)`,
    );
  }
  return rate;
}

/** `i/n` with 1 ≤ i ≤ n. */
function parseShard(text: string, flag: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw usageError(`${flag} '${text}': expected i/n with 1 ≤ i ≤ n, e.g. 2/4`);
  return { index, count };
}
