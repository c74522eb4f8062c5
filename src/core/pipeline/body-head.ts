import { releaseChunk } from '../buffers/chunk-pool.js';
import { redactUrl } from '../model/redact.js';
import type { CheckContext } from './body-checks.js';
import { fail, firstLine } from './body-checks.js';

/** Bytes a body may hold before its first line end, at most: a record is well under 1 KiB. */
const HEAD_CAP = 64 * 1024;

/** The start of a body, once its first non-blank line is known: that line, and every byte so far. */
export interface Head {
  first: string;
  bytes: Buffer;
}

/**
 * Holds a body's first chunks until its first line is seen, which decides what the body is (an error, a
 * JSON document, records of some shape). A body with no line end in HEAD_CAP bytes is no data of this
 * endpoint, unless it is a JSON document (`json`), which need have none.
 */
export class BodyHead {
  private pieces: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly check: CheckContext,
    private readonly json: boolean,
  ) {}

  /** Adds a chunk; returns the head once its first line is known, else undefined. */
  take(chunk: Buffer): Head | undefined {
    this.pieces.push(chunk);
    this.size += chunk.length;
    const bytes = Buffer.concat(this.pieces);
    const first = firstLine(bytes);
    if (first === undefined && this.size < HEAD_CAP) return undefined;
    for (const piece of this.pieces) releaseChunk(piece); // copied into `bytes`
    this.pieces = [];
    const text = first ?? bytes.toString('utf8').trim();
    if (first === undefined && !(this.json && /^[[{]/.test(text)))
      fail(
        this.check,
        'MDGET_HTTP',
        `no line end in the first ${HEAD_CAP} bytes: not this endpoint's data (${redactUrl(this.check.url)})`,
      );
    return { first: text, bytes };
  }

  /** At the body's end: what it held, or undefined when that was blank (zero records). */
  end(): Head | undefined {
    const bytes = Buffer.concat(this.pieces);
    const text = bytes.toString('utf8').trim();
    return text === '' ? undefined : { first: text, bytes };
  }
}
