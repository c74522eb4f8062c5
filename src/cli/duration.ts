import { InvalidArgumentError } from 'commander';

/** Milliseconds from `500ms`, `30s`, `2m`, `1h` or plain seconds (`45`); throws for anything else. */
export function parseDuration(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m)
    throw new InvalidArgumentError('expected a duration such as 30s, 2m, 500ms or a number of seconds.');
  const unit = m[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  const ms = Number(m[1]) * factor;
  if (ms <= 0) throw new InvalidArgumentError('the duration must be positive.');
  return Math.round(ms);
}
