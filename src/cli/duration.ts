import { InvalidArgumentError } from 'commander';

const FACTORS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** The duration units every duration flag takes, for help and errors. */
export const DURATION_FORM =
  'a number with ms, s, m, h, d or w (e.g. 30s, 2m, 1h, 7d); a bare number is seconds';

/** Milliseconds from `500ms`, `30s`, `2m`, `1h`, `7d`, `2w` or plain seconds (`45`); throws for anything else. */
export function parseDuration(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`expected a duration: ${DURATION_FORM}.`);
  const factor = FACTORS[m[2] ?? 's']!;
  const ms = Number(m[1]) * factor;
  if (ms <= 0) throw new InvalidArgumentError('the duration must be positive.');
  return Math.round(ms);
}

/** Requests per second from `5`, `5/s`, `0.5/s`, `120/m` or `3600/h` (--rate); throws for anything else. */
export function parseRate(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(?:\/(s|m|h))?$/.exec(value.trim());
  const rate = m ? Number(m[1]) / (m[2] === 'm' ? 60 : m[2] === 'h' ? 3600 : 1) : Number.NaN;
  if (!(rate > 0)) {
    throw new InvalidArgumentError(
      'expected requests per second: a number, optionally with /s, /m or /h (e.g. 5, 0.5/s, 120/m).',
    );
  }
  return rate;
}
