import type { OptionName } from './options.js';

/** Configuration flags: every command accepts all of them, and shows those it uses. */
export const CONFIG_OPTIONS = [
  'username',
  'password-stdin',
  'password',
  'historical-url',
  'futures-options-url',
  'extras-url',
  'exchanges-path',
  'instruments-url',
  'env-file',
  'proxy',
] as const satisfies readonly OptionName[];
