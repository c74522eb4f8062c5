import { releaseChunk } from '../buffers/chunk-pool.js';
import { isDigit, MINUS, scanNumber } from './json-number.js';

/** Which values `streamJsonObjects` yields: the elements of one top-level array, or each top-level value. */
export type JsonValuesMode = 'array-elements' | 'top-level-values';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const BOM = [0xef, 0xbb, 0xbf];
const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
// Where a number or literal at the top level ends; JSON.parse then judges the token.
const endsToken = (byte: number) =>
  isWhitespace(byte) ||
  byte === COMMA ||
  byte === CLOSE_BRACKET ||
  byte === CLOSE_BRACE ||
  byte === OPEN_BRACKET ||
  byte === OPEN_BRACE ||
  byte === QUOTE ||
  byte === 0x3a;

// Where the splitter stands between values. An array's elements: `start` before `[`, `first` after it,
// `next` after a comma, `after` after an element, `done` after `]`. Top-level values: always `stream`.
type Phase = 'start' | 'first' | 'next' | 'after' | 'done' | 'stream';

// The value being scanned: none (between values), an object or array, a string, a number or literal.
const NONE = 0;
const CONTAINER = 1;
const STRING = 2;
const TOKEN = 3;

/**
 * Splits a byte stream into the texts of its JSON values (the elements of one array, or each top-level
 * value), tracking only nesting and strings: JSON.parse then checks and builds each value natively. A
 * number JSON.parse would not give back exactly (above 2^53, `1.0`, `-0`) marks its value `exact`, to be
 * built by `parseLossless` instead. Bytes are scanned once, as bytes: UTF-8 puts no byte below 0x80
 * inside a multi-byte character, so every byte this looks at is the ASCII character it seems.
 */
export class JsonValueSplitter {
  private phase: Phase;
  private kind = NONE;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private valueIsExact = false;
  private chunk: Buffer = Buffer.alloc(0);
  private at = 0;
  private start = 0;
  /** Bytes of the value in progress from earlier chunks (copies: a value rarely spans two). */
  private pieces: Buffer[] = [];
  private seen = 0;
  private bomMatched = 0;
  private readonly decoder = new TextDecoder();

  constructor(private readonly mode: JsonValuesMode) {
    this.phase = mode === 'array-elements' ? 'start' : 'stream';
  }

  /** Whether the value `next()` returned last needs `parseLossless` (it holds a number JSON.parse would round). */
  get exact(): boolean {
    return this.valueIsExact;
  }

  /** Takes the next chunk of the body; call `next()` until it returns undefined before the one after. */
  feed(chunk: Buffer): void {
    // Done with the chunk before: what a value needs of it was decoded or copied (`pieces`).
    releaseChunk(this.chunk);
    this.seen += this.chunk.length;
    this.chunk = chunk;
    this.at = 0;
    this.start = 0;
  }

  /** The text of the next value completed in the current chunk, or undefined once the chunk is used up. */
  next(): string | undefined {
    const chunk = this.chunk;
    const length = chunk.length;
    for (;;) {
      if (this.kind !== NONE) {
        const end =
          this.kind === CONTAINER
            ? this.scanContainer(this.at)
            : this.kind === STRING
              ? this.scanString(this.at)
              : this.scanToken(this.at);
        if (end < 0) {
          this.pieces.push(Buffer.from(chunk.subarray(this.start)));
          this.at = length;
          return undefined;
        }
        this.at = end;
        return this.finish(end);
      }
      if (this.at >= length) return undefined;
      const byte = chunk[this.at] as number;
      if (isWhitespace(byte)) {
        this.at += 1;
      } else if (this.seen + this.at === this.bomMatched && byte === BOM[this.bomMatched]) {
        // A UTF-8 byte order mark before the first value is not part of the JSON.
        this.bomMatched += 1;
        this.at += 1;
      } else {
        this.between(byte);
      }
    }
  }

  /** Checks that the body ended where a value may; returns the text of a number or literal it ended. */
  end(): string | undefined {
    releaseChunk(this.chunk);
    this.seen += this.chunk.length;
    this.chunk = Buffer.alloc(0);
    this.at = 0;
    this.start = 0;
    if (this.kind === TOKEN && this.mode === 'top-level-values') return this.finish(0);
    if (this.kind !== NONE || (this.phase !== 'done' && this.phase !== 'stream')) {
      // Nothing but whitespace (or a byte order mark) ever leaves `start` without a value.
      if (this.phase === 'start') throw new EmptyBody();
      throw new SyntaxError('Unexpected end of JSON input');
    }
    return undefined;
  }

  /** Moves on from one byte between values: punctuation, or the first byte of a value. */
  private between(byte: number): void {
    // A byte order mark is all three bytes or none.
    if (this.bomMatched % BOM.length !== 0) this.unexpected(byte);
    const phase = this.phase;
    if (phase === 'start') {
      if (byte === OPEN_BRACKET) {
        this.phase = 'first';
        this.at += 1;
        return;
      }
      if (startsValue(byte)) throw new NotAnArray();
      this.unexpected(byte);
    }
    if (phase === 'after') {
      if (byte === COMMA) this.phase = 'next';
      else if (byte === CLOSE_BRACKET) this.phase = 'done';
      else this.unexpected(byte);
      this.at += 1;
      return;
    }
    if (phase === 'first' && byte === CLOSE_BRACKET) {
      this.phase = 'done';
      this.at += 1;
      return;
    }
    if (phase === 'done' || !startsValue(byte)) this.unexpected(byte);
    if (phase !== 'stream') this.phase = 'after';
    this.start = this.at;
    this.valueIsExact = false;
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      this.kind = CONTAINER;
      this.depth = 1;
      this.at += 1;
    } else if (byte === QUOTE) {
      this.kind = STRING;
      this.at += 1;
    } else {
      this.kind = TOKEN;
    }
  }

  private unexpected(byte: number): never {
    const shown =
      byte >= 0x20 && byte < 0x7f ? `"${String.fromCharCode(byte)}"` : `byte 0x${byte.toString(16)}`;
    throw new SyntaxError(`Unexpected ${shown} at byte ${this.seen + this.at}`);
  }

  /** The text of the value that ends at `end` of the current chunk. */
  private finish(end: number): string {
    this.kind = NONE;
    const tail = this.chunk.subarray(this.start, end);
    if (this.pieces.length === 0) return this.decoder.decode(tail);
    const bytes = Buffer.concat([...this.pieces, tail]);
    this.pieces = [];
    return this.decoder.decode(bytes);
  }

  // The hot loop: nearly every byte of an instruments file passes here once.
  /** Scans an object or array from `from`: the index just past its end, or -1 if the chunk ends first. */
  private scanContainer(from: number): number {
    const chunk = this.chunk;
    const length = chunk.length;
    let at = from;
    let depth = this.depth;
    if (this.inString) {
      at = this.scanString(at);
      if (at < 0) return -1;
    }
    while (at < length) {
      const byte = chunk[at++] as number;
      if (byte === QUOTE) {
        for (;;) {
          if (at >= length) {
            this.depth = depth;
            this.inString = true;
            this.escaped = false;
            return -1;
          }
          const inner = chunk[at++] as number;
          if (inner === QUOTE) break;
          if (inner === BACKSLASH) {
            if (at >= length) {
              this.depth = depth;
              this.inString = true;
              this.escaped = true;
              return -1;
            }
            at += 1;
          }
        }
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        depth += 1;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth -= 1;
        if (depth === 0) {
          this.depth = 0;
          return at;
        }
      } else if (isDigit(byte) || byte === MINUS) {
        at = this.scanNumber(at - 1);
      }
    }
    this.depth = depth;
    return -1;
  }

  /** Scans the rest of a string (its opening quote already read): the index past its end, or -1. */
  private scanString(from: number): number {
    const chunk = this.chunk;
    const length = chunk.length;
    let at = from;
    if (this.escaped) {
      if (at >= length) return -1;
      at += 1;
      this.escaped = false;
    }
    while (at < length) {
      const byte = chunk[at++] as number;
      if (byte === QUOTE) {
        this.inString = false;
        return at;
      }
      if (byte === BACKSLASH) {
        if (at >= length) {
          this.inString = true;
          this.escaped = true;
          return -1;
        }
        at += 1;
      }
    }
    this.inString = true;
    return -1;
  }

  /** Scans a number or literal standing alone: the index where it ends, or -1 if the chunk ends first. */
  private scanToken(from: number): number {
    const chunk = this.chunk;
    const length = chunk.length;
    for (let at = from; at < length; at++) {
      if (endsToken(chunk[at] as number)) return at;
    }
    // A number cut by a chunk boundary is judged by parseLossless, which is right for any number.
    this.valueIsExact = true;
    return -1;
  }

  /** Scans a number inside a container: the index past it; the value is exact unless it round-trips. */
  private scanNumber(start: number): number {
    const { end, exact } = scanNumber(this.chunk, start);
    if (exact) this.valueIsExact = true;
    return end;
  }
}

const startsValue = (byte: number) =>
  byte === OPEN_BRACE ||
  byte === OPEN_BRACKET ||
  byte === QUOTE ||
  byte === MINUS ||
  isDigit(byte) ||
  byte === 0x74 || // true
  byte === 0x66 || // false
  byte === 0x6e; // null

/** The body is a JSON value but not an array. */
export class NotAnArray extends Error {}
/** The body held no JSON value at all. */
export class EmptyBody extends Error {}
