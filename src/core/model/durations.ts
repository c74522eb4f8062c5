import { usageError } from './errors.js';

/** The accepted duration units, for help and errors. */
export const DURATION_UNITS = 'ms, s, m, h, d or w (500ms, 30s, 2m, 1h, 7d); a bare number is seconds';

const FACTORS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Milliseconds from `500ms`, `30s`, `2m`, `1h`, `7d`, `2w` or plain seconds (`45`); `name` names the option. */
export function parseDuration(text: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)?$/.exec(text.trim());
  const ms = m ? Math.round(Number(m[1]) * FACTORS[m[2] ?? 's']!) : Number.NaN;
  if (!(ms > 0))
    throw usageError(`${name} '${text}': expected a duration: a positive number with ${DURATION_UNITS}`);
  return ms;
}
