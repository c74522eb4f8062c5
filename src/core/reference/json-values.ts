import type { Readable } from 'node:stream';
import { MdgetError } from '../model/errors.js';
import { EmptyBody, JsonValueSplitter, type JsonValuesMode, NotAnArray } from './json-splitter.js';
import {
  isJsonNumber,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  parseLossless,
} from './lossless-json.js';

export type { JsonValuesMode } from './json-splitter.js';

function kindOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isJsonNumber(value)) return 'a number';
  return `a ${typeof value}`;
}

/** The JSON value of one value's text; `exact` values keep every number's text (see lossless-json.ts). */
function parseValue(text: string, exact: boolean): JsonValue {
  return exact ? parseLossless(text) : (JSON.parse(text) as JsonValue);
}

// Memory holds one chunk and one object whatever the body size; breaking out destroys `source`.
/** JSON objects of `source` one at a time, numbers lossless; MDGET_SERVICE if malformed, source errors as is. */
export async function* streamJsonObjects(
  source: Readable,
  mode: JsonValuesMode,
  label: string,
): AsyncGenerator<JsonObject> {
  const splitter = new JsonValueSplitter(mode);
  let count = 0;
  // The body fails with the reason before the loop's exit destroys it with an AbortError: whoever watches
  // its stages (commands/reference.ts reports a transport failure first) then sees a malformed document.
  const fail = (error: MdgetError): MdgetError => {
    source.destroy(error);
    return error;
  };
  const objectOf = (text: string): JsonObject => {
    count += 1;
    let value: JsonValue;
    try {
      value = parseValue(text, splitter.exact);
    } catch (error) {
      // RangeError: nesting deeper than parseLossless's stack, which no instruments file comes near.
      if (!(error instanceof SyntaxError || error instanceof RangeError)) throw error;
      throw fail(malformed(label, `value ${count}: ${error.message}`, error));
    }
    if (!isJsonObject(value)) {
      throw fail(
        new MdgetError('MDGET_SERVICE', `${label}: value ${count} is ${kindOf(value)}, not a JSON object`),
      );
    }
    return value;
  };
  const step = (take: () => string | undefined): string | undefined => {
    try {
      return take();
    } catch (error) {
      throw fail(structureError(label, error));
    }
  };
  const next = () => splitter.next();
  for await (const chunk of source) {
    splitter.feed(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    for (let text = step(next); text !== undefined; text = step(next)) yield objectOf(text);
  }
  const last = step(() => splitter.end());
  if (last !== undefined) yield objectOf(last);
}

/** The MdgetError for what the splitter threw; anything but its own three errors is a bug, thrown as is. */
function structureError(label: string, error: unknown): MdgetError {
  if (error instanceof NotAnArray) {
    return new MdgetError('MDGET_SERVICE', `${label}: the body is not a JSON array`);
  }
  if (error instanceof EmptyBody) {
    return new MdgetError('MDGET_SERVICE', `${label}: empty body, expected a JSON array`);
  }
  if (error instanceof SyntaxError) return malformed(label, error.message, error);
  throw error;
}

function malformed(label: string, detail: string, cause: unknown): MdgetError {
  return new MdgetError('MDGET_SERVICE', `${label}: malformed JSON: ${detail}`, { cause });
}
