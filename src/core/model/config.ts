import { configError } from './errors.js';

/** The resolved settings the library works with. The CLI resolves them; the library reads nothing itself. */
export interface Config {
  username?: string;
  password?: string;
  historicalUrl?: string;
  futuresOptionsUrl?: string;
  extrasUrl?: string;
  exchangesPath?: string;
  instrumentsUrl?: string;
  /** The server's cap on rows per response, as the user states it (--max-rows, MDGET_MAX_ROWS). */
  maxRows?: string;
}

/** Marks a configuration given to the library's createClient (a symbol: never shown, never serialised). */
const CLIENT_CONFIG: unique symbol = Symbol('mdget client config');

/** A configuration the library's client was given: its messages name the client's config keys. */
export const clientConfig = (config: Config): Config =>
  Object.assign({ ...config }, { [CLIENT_CONFIG]: true as const });

const isClientConfig = (config: Config): boolean =>
  (config as { [CLIENT_CONFIG]?: true })[CLIENT_CONFIG] === true;

/** Which settings a command needs; checked before any request is sent. */
export type Requirement = 'credentials' | 'historical' | 'futuresOptions' | 'extras' | 'instruments';

/** The names users set, for messages that tell them what to do (docs/cli.md#configuration). */
export const CONFIG_VARIABLES = {
  username: 'MDGET_USERNAME',
  password: 'MDGET_PASSWORD',
  historicalUrl: 'MDGET_HISTORICAL_URL',
  futuresOptionsUrl: 'MDGET_FUTURES_OPTIONS_URL',
  extrasUrl: 'MDGET_EXTRAS_URL',
  exchangesPath: 'MDGET_EXCHANGES_PATH',
  instrumentsUrl: 'MDGET_INSTRUMENTS_URL',
  maxRows: 'MDGET_MAX_ROWS',
} as const satisfies Record<keyof Config, string>;

const NEEDS: Record<Requirement, (keyof Config)[]> = {
  credentials: ['username', 'password'],
  historical: ['historicalUrl'],
  futuresOptions: ['futuresOptionsUrl'],
  extras: ['extrasUrl', 'exchangesPath'],
  instruments: ['instrumentsUrl'],
};

/**
 * Throws MDGET_CONFIG naming what sets a needed value when it is missing, or a base URL that is not
 * http(s): the CLI's variable, or the client's config key.
 */
export function requireConfig(config: Config, needs: readonly Requirement[]): void {
  const client = isClientConfig(config);
  for (const need of needs) {
    for (const key of NEEDS[need]) {
      const value = config[key];
      const name = client ? `config.${key}` : CONFIG_VARIABLES[key];
      if (value === undefined || value === '') {
        if (client)
          throw configError(
            `missing ${name}: give it to createClient (\`mdget emulator\` prints a local one)`,
          );
        const how =
          key === 'password'
            ? 'set MDGET_PASSWORD (environment or .env) or pipe it to --password-stdin'
            : `set ${name} or add it to .env`;
        throw configError(`missing ${describe(key)}: ${how} (try \`mdget emulator\` for a local service)`);
      }
      if (isBaseUrl(key))
        checkBaseUrl(value, name, client ? 'config.username and config.password' : undefined);
    }
  }
}

function describe(key: keyof Config): string {
  return key === 'username' ? 'user name' : key === 'password' ? 'password' : CONFIG_VARIABLES[key];
}

/** True for the settings that are base URLs of the service. */
export const isBaseUrl = (key: keyof Config): boolean => key.endsWith('Url');

/**
 * Throws MDGET_CONFIG naming `name` (a variable, a flag or a config key) unless `value` is a base URL
 * mdget can use; `credentials` names where the user name and password go instead.
 */
export function checkBaseUrl(
  value: string,
  name: string,
  credentials = 'MDGET_USERNAME and MDGET_PASSWORD',
): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw configError(`${name} is not a URL: expected http://host[:port]/path`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`${name} must be an http:// or https:// URL, not ${url.protocol}`);
  }
  if (url.search || url.hash) throw configError(`${name} must not carry a query or fragment`);
  if (url.username || url.password) {
    throw configError(`${name} must not carry credentials: use ${credentials}`);
  }
}

/**
 * The configured row cap as a number (docs/completeness.md), or undefined; throws MDGET_CONFIG for a
 * malformed value.
 */
export function maxRowsOf(config: Config): number | undefined {
  if (config.maxRows === undefined || config.maxRows === '') return undefined;
  const rows = /^\d+$/.test(config.maxRows.trim()) ? Number(config.maxRows) : Number.NaN;
  if (!Number.isSafeInteger(rows) || rows < 1) {
    throw configError(`MDGET_MAX_ROWS '${config.maxRows}': expected a whole number ≥ 1 (rows per response)`);
  }
  return rows;
}
