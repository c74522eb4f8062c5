/**
 * The options that configure a run rather than ask for data: credentials and base URLs (flag > environment
 * > dotenv file > default, docs/cli.md#configuration), and the emulator's own. Rows of the one option
 * table, options.ts.
 */
export const CONFIG_OPTIONS = {
  // Configuration: flag > environment > dotenv file > default (docs/cli.md#configuration).
  username: { value: 'name', group: 'config', env: 'MDGET_USERNAME', help: 'account user name' },
  'password-stdin': {
    group: 'config',
    env: 'MDGET_PASSWORD',
    help: 'read the password from the first line of standard input',
  },
  password: {
    value: 'value',
    hidden: true,
    group: 'config',
    help: 'refused: a password on the command line shows in ps and shell history',
  },
  'historical-url': {
    value: 'url',
    group: 'config',
    env: 'MDGET_HISTORICAL_URL',
    help: 'base of the `.ashx` endpoints',
  },
  'futures-options-url': {
    value: 'url',
    group: 'config',
    env: 'MDGET_FUTURES_OPTIONS_URL',
    help: 'base of `futuresoptions` and `futuresoptions/json`',
  },
  'extras-url': {
    value: 'url',
    group: 'config',
    env: 'MDGET_EXTRAS_URL',
    help: 'base of the exchanges list',
  },
  'exchanges-path': {
    value: 'name',
    group: 'config',
    env: 'MDGET_EXCHANGES_PATH',
    help: 'exchanges-list resource under the extras URL, `<name>.php`',
    defaultText: 'exchanges',
  },
  'instruments-url': {
    value: 'url',
    group: 'config',
    env: 'MDGET_INSTRUMENTS_URL',
    help: 'base of `<exchange_id>-instruments.json`',
  },
  'env-file': {
    value: 'path',
    group: 'config',
    help: 'dotenv file to read',
    defaultText: '`.env` in the working directory, if present',
  },

  // The emulator's own.
  port: { value: 'n', group: 'emulator', help: 'port, 0-65535', defaultText: '0, a free one' },
  set: {
    value: 'key=value',
    repeatable: true,
    group: 'emulator',
    help: 'emulator option (see --help-options), repeatable',
  },
  'help-options': { group: 'emulator', help: 'list the emulator options and its assumptions' },
  tls: {
    group: 'emulator',
    help: 'serve HTTPS with a CA and a certificate made for the run; prints the CA file as NODE_EXTRA_CA_CERTS',
  },
} as const;
