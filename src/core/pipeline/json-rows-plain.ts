import { isTextColumn } from '../model/records.js';
import { jsonValue } from './output-state.js';

/** How records are framed: one per line (ndjson), or as the items of one array (json). */
export type JsonFraming = 'ndjson' | 'json';

/** The JSON records of a run of csv lines, and how many there are. */
export interface JsonChunk {
  bytes: Buffer;
  records: number;
}

/**
 * Bytes around each record. A json item starts with `,\n`, so chunks join without knowing what came
 * before; the caller turns the output's first `,` into `[`.
 */
export const FRAMES: Record<JsonFraming, { open: string; close: string }> = {
  ndjson: { open: '', close: '\n' },
  json: { open: ',\n', close: '' },
};

/**
 * The JSON converter's plain fallback (json-rows.ts has the interface and the choice), in standard
 * JavaScript: a line with one field per column is written with the column's key and output-state.ts
 * jsonValue, as recordToJson writes it; any other line goes to `fallback` (recordToJson), as it does
 * from the WebAssembly loop, so both give the same bytes.
 */
export class PlainJsonRows {
  /** `{"name":` for the first column, `,"name":` for the others. */
  private readonly keys: readonly string[];
  private readonly isText: readonly boolean[];

  constructor(columns: readonly string[] | undefined) {
    this.keys = (columns ?? []).map((name, i) => `${i === 0 ? '{' : ','}${JSON.stringify(name)}:`);
    this.isText = (columns ?? []).map(isTextColumn);
  }

  /** The records of `lines` (complete lines, each ending in LF), in the order of the lines. */
  convert(lines: Buffer, framing: JsonFraming, fallback: (line: string) => string): JsonChunk {
    const { open, close } = FRAMES[framing];
    const { keys, isText } = this;
    const last = keys.length - 1;
    // LF never occurs inside a UTF-8 sequence: decoding the whole run then splitting it gives the strings
    // decoding each line would
    const text = lines.toString('utf8');
    let out = '';
    let records = 0;
    for (let start = 0; start < text.length; ) {
      const lf = text.indexOf('\n', start);
      const end = lf < 0 ? text.length : lf;
      // an empty line (the normalizer leaves none) gives no record
      if (end > start) {
        records++;
        const line = text.slice(start, end);
        start = end + 1;
        // without columns, keys depend on each line's field count: every line goes to the fallback
        if (last < 0) {
          out += `${open}${fallback(line)}${close}`;
          continue;
        }
        // A line with nothing JSON escapes quotes its text fields as they are; jsonValue does the rest.
        const plain = !ESCAPED.test(line);
        let record = open;
        let from = 0;
        let i = 0;
        for (; i <= last; i++) {
          const comma = line.indexOf(',', from);
          if (comma < 0 !== (i === last)) break; // another field count
          const field = i === last ? line.slice(from) : line.slice(from, comma);
          record +=
            keys[i]! + (plain && isText[i] && field !== '' ? `"${field}"` : jsonValue(field, isText[i]!));
          from = comma + 1;
        }
        out += i > last ? `${record}}${close}` : `${open}${fallback(line)}${close}`;
      } else {
        start = end + 1;
      }
    }
    return { bytes: Buffer.from(out), records };
  }
}

/** What JSON.stringify escapes in a string: quotes, backslashes, controls and lone surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
