import { rowOfOption } from '../core/model/option-schema.js';
import type { NameOf } from '../core/plan/names.js';
import { UTC_FORM } from '../core/time/time-zones.js';

/** Names that are not a flag of the option table (core/model/option-schema.ts). */
const NOT_FLAGS: Record<string, string> = {
  database: '<database>',
  symbols: 'them as arguments or with --symbols-file <path>',
};

/** How the CLI names an option in a message: by its flag from the option table (`windowMs` → `--window`). */
export const flagNames: NameOf = (option, value) => {
  if (option === 'timeZone') return value === UTC_FORM ? '--utc' : '--tz';
  if (option === 'variant') return value === 'form-t' ? '--form-t' : '--nearby';
  const row = rowOfOption(option);
  if (row) return row.shown ?? `--${row.flag}`;
  return NOT_FLAGS[option] ?? `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
};
