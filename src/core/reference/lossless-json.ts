/**
 * Lossless JSON values (docs/service.md#json-conventions): 64-bit ids may arrive as bare numbers above 2^53
 * and 32-bit floats as written artifacts (`0.0099999998`), so a JSON number is a plain `number` only when
 * `String(number)` gives back its exact source text; any other number is a `RawNumber` holding the text.
 * Either way `stringifyLossless` writes every number byte for byte as it was read.
 */

/** A JSON number whose source text a JS number cannot reproduce (e.g. `9223372036854775807`, `1.0`, `-0`). */
export class RawNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  /** The nearest double: fine for arithmetic, never for ids. */
  valueOf(): number {
    return Number(this.text);
  }
  toString(): string {
    return this.text;
  }
  // JSON.stringify cannot emit raw text on Node 20 (no JSON.rawJSON): a stray call gets the digits, quoted.
  // Counting the calls lets stringifyLossless tell, after one native pass, whether it met a RawNumber.
  toJSON(): string {
    rawNumbersSerialized += 1;
    return this.text;
  }
}

// Only ever compared before and after one synchronous JSON.stringify call: no state survives a call.
let rawNumbersSerialized = 0;

/** A JSON number as read: a plain number when that round-trips to its text, else a RawNumber. */
export type JsonNumber = number | RawNumber;
/** A JSON value that keeps every number's source text. */
export type JsonValue = string | JsonNumber | boolean | null | JsonValue[] | JsonObject;
/** A JSON object with lossless values. */
export type JsonObject = { [key: string]: JsonValue };

/** The lossless value of a JSON number's source text. */
export function jsonNumber(text: string): JsonNumber {
  const value = Number(text);
  return String(value) === text ? value : new RawNumber(text);
}

/** True for a JSON number read by this module (plain or raw). */
export function isJsonNumber(value: unknown): value is JsonNumber {
  return typeof value === 'number' || value instanceof RawNumber;
}

/** True for a JSON object (not an array, not null, not a RawNumber). */
export function isJsonObject(value: unknown): value is JsonObject {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RawNumber)
  );
}

/** The exact text of a JSON number, or of a string (ids may come either way); undefined for anything else. */
export function numberText(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (value instanceof RawNumber) return value.text;
  return undefined;
}

/** Sets `key` on `target` even when it is `__proto__`, which plain assignment would turn into a prototype. */
export function setJsonKey(target: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

// Keys come in JS property order, which moves integer-like keys first; instrument messages have none.
/** Compact JSON text of `value`, every number written exactly as it was read. */
export function stringifyLossless(value: JsonValue): string {
  // Plain numbers print as their source text already, so without a RawNumber the native pass is exact;
  // a RawNumber met on the way shows in the counter (a walk to look for one first cost as much as the pass).
  const before = rawNumbersSerialized;
  const text = JSON.stringify(value);
  return rawNumbersSerialized === before ? text : writeLossless(value);
}

function writeLossless(value: JsonValue): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // A plain number is one whose String() was its source text, and JSON has no NaN or Infinity.
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  if (value === null) return 'null';
  if (value instanceof RawNumber) return value.text;
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += writeLossless(value[i] as JsonValue);
    }
    return out + ']';
  }
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(key) + ':' + writeLossless(item);
  }
  return out + '}';
}

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The text of the token `pattern` (sticky) matches at `at`; undefined if none starts there. */
function tokenAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/**
 * JSON.parse's grammar, but numbers through `jsonNumber`: for the rare value holding a number JSON.parse
 * would round (a bare id above 2^53, `1.0`, `-0`). Objects get keys as JSON.parse sets them (own data
 * properties, `__proto__` included; a repeated key keeps its first place and its last value).
 */
class ExactParser {
  private at = 0;
  constructor(private readonly text: string) {}

  document(): JsonValue {
    const value = this.value();
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail();
    return value;
  }

  private value(): JsonValue {
    this.skipWhitespace();
    const text = this.text;
    const code = text.charCodeAt(this.at);
    if (code === 0x7b) return this.object();
    if (code === 0x5b) return this.array();
    if (code === 0x22) return this.string();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    const number = tokenAt(NUMBER, text, this.at);
    if (number === undefined) this.fail();
    this.at += number.length;
    return jsonNumber(number);
  }

  private object(): JsonObject {
    const object: JsonObject = {};
    this.at += 1;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === 0x7d) {
      this.at += 1;
      return object;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.at) !== 0x22) this.fail();
      const key = this.string();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.at) !== 0x3a) this.fail();
      this.at += 1;
      setJsonKey(object, key, this.value());
      if (this.endOf(0x7d)) return object;
    }
  }

  private array(): JsonValue[] {
    const array: JsonValue[] = [];
    this.at += 1;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === 0x5d) {
      this.at += 1;
      return array;
    }
    for (;;) {
      array.push(this.value());
      if (this.endOf(0x5d)) return array;
    }
  }

  /** After a member: true past the closing bracket, false past a comma; anything else fails. */
  private endOf(close: number): boolean {
    this.skipWhitespace();
    const code = this.text.charCodeAt(this.at);
    this.at += 1;
    if (code === close) return true;
    if (code !== 0x2c) this.fail(this.at - 1);
    return false;
  }

  private string(): string {
    const text = this.text;
    const start = this.at;
    let escaped = false;
    let at = start + 1;
    for (;;) {
      const code = text.charCodeAt(at);
      if (code === 0x22) break;
      if (code === 0x5c) {
        escaped = true;
        at += 2;
      } else if (code < 0x20 || at >= text.length) {
        this.fail(at);
      } else {
        at += 1;
      }
    }
    this.at = at + 1;
    // JSON.parse decodes the escapes, and rejects a malformed one.
    return escaped ? (JSON.parse(text.slice(start, at + 1)) as string) : text.slice(start + 1, at);
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.test(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private fail(at = this.at): never {
    const found = at < this.text.length ? `token ${JSON.stringify(this.text[at])}` : 'end of input';
    throw new SyntaxError(`Unexpected ${found} in JSON at position ${at}`);
  }
}

const LITERALS: readonly [string, JsonValue][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/** The JSON value of `text` with every number lossless (see `jsonNumber`); SyntaxError if malformed. */
export function parseLossless(text: string): JsonValue {
  return new ExactParser(text).document();
}
