import type { NameOf } from '../core/plan/names.js';

/** Options whose flag is not `--` and the option in kebab case. */
const FLAGS: Record<string, string> = {
  output: '-o',
  sourceTimeZone: '--source-tz',
  windowMs: '--window',
  timeoutMs: '--timeout',
  extra: '--param',
  header: '--no-header',
  fsync: '--no-fsync',
  database: '<database>',
  symbols: 'them as arguments or with --symbols-file <path>',
};

/** How the CLI names an option in a message: by its flag (`interval` → `--interval`). */
export const flagNames: NameOf = (option, value) => {
  if (option === 'timeZone') return value === 'utc' ? '--utc' : '--tz';
  if (option === 'variant') return value === 'form-t' ? '--form-t' : '--nearby';
  return FLAGS[option] ?? `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
};
