import { pipeline, type Readable } from 'node:stream';
import StreamJson from 'stream-json';
import { isMdgetError, MdgetError } from '../errors.js';
import {
  isJsonNumber,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  jsonNumber,
  setJsonKey,
} from './lossless-json.js';

/** Which values `streamJsonObjects` yields: the elements of one top-level array, or each top-level value. */
export type JsonValuesMode = 'array-elements' | 'top-level-values';

interface Token {
  name: string;
  value?: string | boolean | null;
}

interface Frame {
  // null marks the top-level array whose elements are yielded one by one instead of collected
  container: JsonObject | JsonValue[] | null;
  key: string;
}

/**
 * Builds values from stream-json's packed tokens. stream-json hands numbers over as their source text,
 * which is the only way to keep ids above 2^53 exact (its own Assembler goes through parseFloat).
 */
class ObjectAssembler {
  private readonly stack: Frame[] = [];
  private sawTopArray = false;
  private count = 0;

  constructor(
    private readonly mode: JsonValuesMode,
    private readonly label: string,
    private readonly onObject: (object: JsonObject) => void,
  ) {}

  /** Checks, at the end of input, that an array was there at all. */
  finish(): void {
    if (this.mode === 'array-elements' && !this.sawTopArray) {
      throw new MdgetError('MDGET_SERVICE', `${this.label}: empty body, expected a JSON array`);
    }
  }

  /** Adds one token; calls `onObject` for each completed top-level object. */
  takeToken(token: Token): void {
    switch (token.name) {
      case 'startObject':
        this.open({});
        return;
      case 'startArray':
        if (this.mode === 'array-elements' && this.stack.length === 0) {
          this.sawTopArray = true;
          this.stack.push({ container: null, key: '' });
        } else {
          this.open([]);
        }
        return;
      case 'endObject':
      case 'endArray': {
        const frame = this.stack.pop();
        if (frame?.container) this.add(frame.container);
        return;
      }
      case 'keyValue': {
        const frame = this.stack[this.stack.length - 1];
        if (frame) frame.key = token.value as string;
        return;
      }
      case 'stringValue':
        this.add(token.value as string);
        return;
      case 'numberValue':
        this.add(jsonNumber(token.value as string));
        return;
      case 'trueValue':
        this.add(true);
        return;
      case 'falseValue':
        this.add(false);
        return;
      case 'nullValue':
        this.add(null);
        return;
      default:
        return;
    }
  }

  private open(container: JsonObject | JsonValue[]): void {
    if (this.stack.length === 0 && this.mode === 'array-elements') this.notAnArray();
    this.stack.push({ container, key: '' });
  }

  private add(value: JsonValue): void {
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined) {
      if (this.mode === 'array-elements') this.notAnArray();
      this.yieldValue(value);
    } else if (frame.container === null) {
      this.yieldValue(value);
    } else if (Array.isArray(frame.container)) {
      frame.container.push(value);
    } else {
      setJsonKey(frame.container, frame.key, value);
    }
  }

  private yieldValue(value: JsonValue): void {
    this.count += 1;
    if (!isJsonObject(value)) {
      const kind =
        value === null
          ? 'null'
          : Array.isArray(value)
            ? 'an array'
            : isJsonNumber(value)
              ? 'a number'
              : `a ${typeof value}`;
      throw new MdgetError(
        'MDGET_SERVICE',
        `${this.label}: value ${this.count} is ${kind}, not a JSON object`,
      );
    }
    this.onObject(value);
  }

  private notAnArray(): never {
    throw new MdgetError('MDGET_SERVICE', `${this.label}: the body is not a JSON array`);
  }
}

/**
 * stream-json's parser with the assembler inside: every token reaches `push()`, which builds objects there
 * and lets only whole ones out. This saves an object-mode stream hop per token (about 100 per entry), and
 * the readable side still applies backpressure, now counted in objects.
 */
class ObjectParser extends StreamJson.Parser {
  private readonly assembler: ObjectAssembler;
  private failed = false;

  constructor(mode: JsonValuesMode, label: string) {
    super({ packValues: true, streamValues: false, jsonStreaming: mode === 'top-level-values' });
    this.assembler = new ObjectAssembler(mode, label, (object) => super.push(object));
  }

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (this.failed) return false;
    try {
      if (chunk === null) {
        this.assembler.finish();
        return super.push(null, encoding);
      }
      this.assembler.takeToken(chunk as Token);
      return true;
    } catch (error) {
      // The parser ignores push()'s result and would go on tokenizing: stop it here, with the reason.
      this.failed = true;
      this.destroy(error as Error);
      return false;
    }
  }
}

// Memory holds one object plus stream buffers whatever the body size; breaking out destroys `source`.
/** JSON objects of `source` one at a time, numbers lossless; MDGET_SERVICE if malformed, source errors as is. */
export async function* streamJsonObjects(
  source: Readable,
  mode: JsonValuesMode,
  label: string,
): AsyncGenerator<JsonObject> {
  const parser = new ObjectParser(mode, label);
  // pipeline() destroys every stream with the first error, so the parser also reports errors of the source;
  // assembler errors are already MdgetErrors: only a plain error the parser raised is a malformed body.
  let parserError: unknown;
  let sourceError: unknown;
  parser.once('error', (error) => {
    parserError = error;
  });
  source.once('error', (error) => {
    sourceError = error;
  });
  // The callback is required by this overload; the same error reaches the loop below through `objects`.
  const objects = pipeline(source, parser, () => {});
  try {
    for await (const object of objects) yield object as JsonObject;
  } catch (error) {
    if (error !== undefined && error === parserError && error !== sourceError && !isMdgetError(error)) {
      throw new MdgetError('MDGET_SERVICE', `${label}: malformed JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
    throw error;
  }
}
