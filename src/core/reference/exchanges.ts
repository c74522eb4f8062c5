import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MdgetError } from '../model/errors.js';

/**
 * One `exchange` element of the exchanges list (docs/service.md#exchanges-list), typed; absent or unparsable
 * = undefined.
 */
export interface Exchange {
  id: string;
  feedcode?: string;
  delay?: number;
  description?: string;
  dataFrequency?: number;
  snapshotFrequency?: number;
  codes?: string[];
  feeWaiver?: boolean;
  /** `yes`, `no` or `eod` (free end-of-day data only): not a boolean. */
  freeDelayed?: string;
  timezoneLocal?: string;
  timezoneFeed?: string;
  eodReleaseTime?: string;
  eodCutoffTime?: string;
  /** Attributes not typed above, and typed ones whose value did not parse, under their original names. */
  extra: Record<string, string>;
}

type Typed = Omit<Exchange, 'id' | 'extra'>;
type Kind = 'text' | 'number' | 'boolean' | 'list' | 'word';

const ATTRIBUTES = new Map<string, readonly [keyof Typed, Kind]>([
  ['feedcode', ['feedcode', 'text']],
  ['delay', ['delay', 'number']],
  ['description', ['description', 'text']],
  ['data_frequency', ['dataFrequency', 'number']],
  ['snapshot_frequency', ['snapshotFrequency', 'number']],
  ['codes', ['codes', 'list']],
  ['feewaiver', ['feeWaiver', 'boolean']],
  ['freedelayed', ['freeDelayed', 'word']],
  ['timezone_local', ['timezoneLocal', 'text']],
  ['timezone_feed', ['timezoneFeed', 'text']],
  ['eod_release_time', ['eodReleaseTime', 'text']],
  ['eod_cutoff_time', ['eodCutoffTime', 'text']],
]);

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const ATTRIBUTE_PREFIX = '@_';

/**
 * The canonical attribute a name stands for. Real lists name the feed code `<prefix>code` (the feed's
 * brand followed by `code`: docs/service.md#exchanges-list), and prefix `timezone_feed` likewise.
 */
function canonicalName(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (ATTRIBUTES.has(lower)) return lower;
  if (/^[a-z_]*code$/.test(lower)) return 'feedcode';
  if (lower.includes('timezone') && lower.includes('feed')) return 'timezone_feed';
  return undefined;
}

function typedValue(kind: Kind, raw: string): string | number | boolean | string[] | undefined {
  const text = raw.trim();
  if (text === '') return kind === 'list' ? [] : undefined;
  switch (kind) {
    case 'text':
      return text;
    case 'word': {
      const lower = text.toLowerCase();
      return lower === 'yes' || lower === 'no' || lower === 'eod' ? lower : undefined;
    }
    case 'number':
      return NUMBER.test(text) ? Number(text) : undefined;
    case 'boolean': {
      const lower = text.toLowerCase();
      if (lower === 'yes' || lower === 'true' || lower === '1') return true;
      if (lower === 'no' || lower === 'false' || lower === '0') return false;
      return undefined;
    }
    case 'list':
      return text
        .split(',')
        .map((code) => code.trim())
        .filter((code) => code !== '');
  }
}

function toExchange(attributes: Record<string, string>): Exchange | undefined {
  const idName = Object.keys(attributes).find((name) => name.toLowerCase() === 'id');
  const id = idName === undefined ? undefined : attributes[idName]?.trim();
  if (!id) return undefined;
  const exchange: Exchange = { id, extra: {} };
  const typed = exchange as unknown as Record<string, unknown>;
  // An exact name beats a brand-prefixed one, whichever comes first in the element.
  const rank = (name: string) => (ATTRIBUTES.has(name.toLowerCase()) ? 0 : 1);
  const names = Object.keys(attributes).sort((a, b) => rank(a) - rank(b));
  for (const name of names) {
    if (name === idName) continue;
    const raw = attributes[name] ?? '';
    const canonical = canonicalName(name);
    const spec = canonical === undefined ? undefined : ATTRIBUTES.get(canonical);
    if (spec === undefined || typed[spec[0]] !== undefined) {
      exchange.extra[name] = raw;
      continue;
    }
    const value = typedValue(spec[1], raw);
    if (value === undefined && raw.trim() !== '') exchange.extra[name] = raw;
    else if (value !== undefined) typed[spec[0]] = value;
  }
  return exchange;
}

function collectExchanges(node: unknown, into: Exchange[]): void {
  if (Array.isArray(node)) {
    for (const item of node) collectExchanges(item, into);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, child] of Object.entries(node)) {
    if (key.startsWith(ATTRIBUTE_PREFIX)) continue;
    if (key.toLowerCase() === 'exchange') {
      for (const element of Array.isArray(child) ? child : [child]) {
        const exchange = toExchange(attributesOf(element));
        if (exchange) into.push(exchange);
      }
    }
    collectExchanges(child, into);
  }
}

function attributesOf(element: unknown): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (typeof element !== 'object' || element === null) return attributes;
  for (const [key, value] of Object.entries(element)) {
    if (key.startsWith(ATTRIBUTE_PREFIX)) attributes[key.slice(ATTRIBUTE_PREFIX.length)] = String(value);
  }
  return attributes;
}

const BOMS: readonly [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

// Sibling documents on that host declare ISO-8859-1. Labels follow the WHATWG table,
// so ISO-8859-1 decodes as windows-1252, as browsers do: real files mean that when they use 0x80-0x9F.
/** The text of XML bytes, decoded per byte-order mark, else the prolog's encoding, else UTF-8. */
function decodeXml(bytes: Uint8Array): string {
  for (const [bom, encoding] of BOMS) {
    if (bom.every((byte, i) => bytes[i] === byte))
      return new TextDecoder(encoding).decode(bytes.subarray(bom.length));
  }
  const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1');
  const declared = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch (error) {
    throw new MdgetError(
      'MDGET_SERVICE',
      `exchanges list: unsupported encoding "${declared}" in the XML prolog`,
      {
        cause: error,
      },
    );
  }
}

// Take bytes when you can: only then can the prolog's encoding be honoured.
/** The typed `exchange` elements at any depth, in order, skipping any without id; MDGET_SERVICE if malformed. */
export function parseExchangesXml(xml: string | Uint8Array): Exchange[] {
  const text = typeof xml === 'string' ? xml : decodeXml(xml);
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    const { msg, line } = verdict.err;
    throw new MdgetError('MDGET_SERVICE', `exchanges list: malformed XML at line ${line}: ${msg}`);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: ATTRIBUTE_PREFIX,
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    htmlEntities: true,
  });
  const exchanges: Exchange[] = [];
  collectExchanges(parser.parse(text), exchanges);
  return exchanges;
}

/** Every exchange whose id or description contains `text` (any case), in list order (`exchanges --find`). */
export function findExchanges(list: readonly Exchange[], text: string): Exchange[] {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [...list];
  return list.filter(
    (exchange) =>
      exchange.id.toLowerCase().includes(needle) ||
      exchange.description?.toLowerCase().includes(needle) === true,
  );
}

/** The exchanges `text` designates: an exact id, else an exact description, else every one containing it. */
function designated(list: readonly Exchange[], text: string): Exchange[] {
  const needle = text.trim().toLowerCase();
  const byId = list.filter((exchange) => exchange.id.toLowerCase() === needle);
  if (byId.length > 0) return byId;
  const byDescription = list.filter((exchange) => exchange.description?.toLowerCase() === needle);
  if (byDescription.length > 0) return byDescription;
  return findExchanges(list, text);
}

const MAX_CANDIDATES = 20;

/**
 * The one exchange `text` designates (docs/cli.md#mdget-instruments-exchange), or MDGET_USAGE naming the candidates on one
 * line.
 */
export function resolveExchange(list: readonly Exchange[], text: string): Exchange {
  const matches = designated(list, text);
  const [only] = matches;
  if (matches.length === 1 && only) return only;
  if (matches.length === 0) {
    throw new MdgetError(
      'MDGET_USAGE',
      `no exchange matches "${text}" by id or description; list them with: mdget exchanges --find <text>`,
    );
  }
  const shown = matches
    .slice(0, MAX_CANDIDATES)
    .map((exchange) => (exchange.description ? `${exchange.id} (${exchange.description})` : exchange.id));
  const more = matches.length > MAX_CANDIDATES ? `, and ${matches.length - MAX_CANDIDATES} more` : '';
  throw new MdgetError(
    'MDGET_USAGE',
    `"${text}" matches ${matches.length} exchanges: ${shown.join(', ')}${more}; give an exact id`,
  );
}
