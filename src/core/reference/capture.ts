import type { Readable } from 'node:stream';
import { MdgetError } from '../model/errors.js';
import type { InstrumentEntry } from './instrument-stream.js';
import { streamJsonObjects } from './json-values.js';
import { isJsonObject, type JsonObject, type JsonValue, numberText } from './lossless-json.js';

/**
 * The kind of a captured feed message: the single key of its envelope
 * (docs/service.md#streaming-metadata-and-captures).
 */
export type CaptureKind = 'instrumentResponse' | 'instrumentDefinition' | 'other';

/** One message of a capture file: 1-based position, kind, and the object inside the envelope. */
export interface CaptureMessage {
  ordinal: number;
  kind: CaptureKind;
  body: JsonObject;
}

/** What one instrumentResponse announced and what followed it. */
export interface CaptureGroup {
  ordinal: number;
  exchange?: string;
  symbol?: string;
  expected: number;
  actual: number;
  /** True when the response embeds a definition of its own (added to the tables, not counted). */
  embedded: boolean;
}

/** The outcome of a capture that passed every check of the count rule. */
export interface CaptureReport {
  groups: CaptureGroup[];
  /** Definitions to write: embedded and following ones, minus those a later one in its group replaced. */
  definitions: number;
  /** Ordinals of messages whose definition a later one with the same marketId replaced. */
  superseded: ReadonlySet<number>;
}

/** Options of `checkCapture`: `onWarning` hears about each repeated marketId in a group. */
export interface CaptureOptions {
  onWarning?: (message: string) => void;
}

/** The messages of an NDJSON capture file, one at a time, numbers lossless; MDGET_SERVICE when malformed. */
export async function* parseCapture(lines: Readable): AsyncGenerator<CaptureMessage> {
  let ordinal = 0;
  for await (const envelope of streamJsonObjects(lines, 'top-level-values', 'capture')) {
    ordinal += 1;
    const kind: CaptureKind =
      'instrumentResponse' in envelope
        ? 'instrumentResponse'
        : 'instrumentDefinition' in envelope
          ? 'instrumentDefinition'
          : 'other';
    if (kind === 'other') {
      yield { ordinal, kind, body: envelope };
      continue;
    }
    const body = envelope[kind];
    if (!isJsonObject(body)) {
      throw new MdgetError('MDGET_SERVICE', `capture: message ${ordinal}: ${kind} is not a JSON object`);
    }
    yield { ordinal, kind, body };
  }
}

const idOf = (definition: JsonObject) => numberText(definition['marketId']) ?? '0';

function embeddedOf(response: JsonObject): JsonObject | undefined {
  const embedded = response['instrumentDefinition'];
  return isJsonObject(embedded) ? embedded : undefined;
}

function describe(
  response: JsonObject,
  ordinal: number,
): { label: string; exchange?: string; symbol?: string } {
  const exchange = typeof response['exchange'] === 'string' ? response['exchange'] : undefined;
  const symbol = typeof response['symbol'] === 'string' ? response['symbol'] : undefined;
  const parts = [exchange && `exchange ${exchange}`, symbol && `symbol ${symbol}`].filter(Boolean);
  const label = parts.length > 0 ? parts.join(', ') : `instrumentResponse (message ${ordinal})`;
  return { label, ...(exchange && { exchange }), ...(symbol && { symbol }) };
}

function checkStatus(response: JsonObject, label: string): void {
  const status = response['status'];
  const result = isJsonObject(status) ? numberText(status['result']) : undefined;
  if (result === 'SUCCESS') return;
  const message = isJsonObject(status) ? status['message'] : undefined;
  const detail = typeof message === 'string' && message !== '' ? `: ${message}` : '';
  // A missing result is the enum default, which is not SUCCESS.
  const verdict = result === undefined ? 'without a status result' : `with status ${result}`;
  throw new MdgetError('MDGET_SERVICE', `capture: ${label} answered ${verdict}${detail}`);
}

function announced(response: JsonObject, label: string): number {
  const value: JsonValue | undefined = response['numberOfDefinitions'];
  const text = value === undefined ? '0' : numberText(value);
  const count = text === undefined ? Number.NaN : Number(text);
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new MdgetError('MDGET_SERVICE', `capture: ${label} has an invalid numberOfDefinitions`);
  }
  return count;
}

interface OpenGroup {
  group: CaptureGroup;
  label: string;
  ids: Map<string, number>;
}

// Memory holds the marketIds of one group (to find repeats), never the definitions themselves.
/**
 * Checks a whole capture (docs/service.md#streaming-metadata-and-captures), or throws MDGET_SERVICE naming
 * exchange, expected and actual.
 */
export async function checkCapture(
  messages: AsyncIterable<CaptureMessage>,
  options: CaptureOptions = {},
): Promise<CaptureReport> {
  const groups: CaptureGroup[] = [];
  const superseded = new Set<number>();
  let definitions = 0;
  let open: OpenGroup | undefined;

  const add = (current: OpenGroup, definition: JsonObject, ordinal: number) => {
    const id = idOf(definition);
    const previous = current.ids.get(id);
    if (previous !== undefined) {
      superseded.add(previous);
      definitions -= 1;
      options.onWarning?.(
        `capture: marketId ${id} repeated after the ${current.label} response (messages ${previous} and ${ordinal}); the last definition wins`,
      );
    }
    current.ids.set(id, ordinal);
    definitions += 1;
  };
  const close = (current: OpenGroup | undefined) => {
    if (current === undefined) return;
    const { group, label } = current;
    if (group.actual !== group.expected) {
      throw new MdgetError(
        'MDGET_SERVICE',
        `capture: ${label} announced ${group.expected} definitions, got ${group.actual}`,
      );
    }
  };

  for await (const message of messages) {
    if (message.kind === 'instrumentResponse') {
      close(open);
      const { label, exchange, symbol } = describe(message.body, message.ordinal);
      checkStatus(message.body, label);
      const embedded = embeddedOf(message.body);
      const group: CaptureGroup = {
        ordinal: message.ordinal,
        ...(exchange && { exchange }),
        ...(symbol && { symbol }),
        expected: announced(message.body, label),
        actual: 0,
        embedded: embedded !== undefined,
      };
      groups.push(group);
      open = { group, label, ids: new Map() };
      if (embedded) add(open, embedded, message.ordinal);
    } else if (message.kind === 'instrumentDefinition') {
      if (open === undefined) {
        throw new MdgetError(
          'MDGET_SERVICE',
          `capture: instrumentDefinition (message ${message.ordinal}) comes before any instrumentResponse`,
        );
      }
      open.group.actual += 1;
      add(open, message.body, message.ordinal);
    }
  }
  close(open);
  return { groups, definitions, superseded };
}

/** The definitions of a capture `checkCapture` passed, in order, without superseded ones (second reading). */
export async function* captureEntries(
  messages: AsyncIterable<CaptureMessage>,
  report: CaptureReport,
): AsyncGenerator<InstrumentEntry> {
  let count = 0;
  for await (const message of messages) {
    const definition =
      message.kind === 'instrumentDefinition'
        ? message.body
        : message.kind === 'instrumentResponse'
          ? embeddedOf(message.body)
          : undefined;
    if (definition === undefined || report.superseded.has(message.ordinal)) continue;
    count += 1;
    yield definition;
  }
  if (count !== report.definitions) {
    throw new MdgetError(
      'MDGET_IO',
      `capture: the file changed while reading (${report.definitions} definitions checked, ${count} read)`,
    );
  }
}

// "Write nothing" on a bad capture must hold for stdout too, and an exchange's group is as large as its
// instruments file: so read twice with flat memory rather than buffer. `open` returns a fresh stream of the
// same bytes each time; stdin has to be spooled to a file first.
/** The definitions of a capture, the first one yielded only after the whole capture passed `checkCapture`. */
export async function* readCapture(
  open: () => Readable,
  options: CaptureOptions = {},
): AsyncGenerator<InstrumentEntry> {
  const report = await checkCapture(parseCapture(open()), options);
  yield* captureEntries(parseCapture(open()), report);
}
