/**
 * Lossless JSON values (wire-formats §3.1): 64-bit ids may arrive as bare numbers above 2^53 and 32-bit
 * floats as written artifacts (`0.0099999998`), so a JSON number is a plain `number` only when
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
  toJSON(): string {
    return this.text;
  }
}

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

function holdsRawNumber(value: JsonValue): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof RawNumber) return true;
  if (Array.isArray(value)) return value.some(holdsRawNumber);
  for (const key in value) if (holdsRawNumber(value[key] as JsonValue)) return true;
  return false;
}

// Keys come in JS property order, which moves integer-like keys first; instrument messages have none.
/** Compact JSON text of `value`, every number written exactly as it was read. */
export function stringifyLossless(value: JsonValue): string {
  // Plain numbers print as their source text already, so without a RawNumber the native path is exact.
  return holdsRawNumber(value) ? writeLossless(value) : JSON.stringify(value);
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
