import type { Readable } from 'node:stream';
import { streamJsonObjects } from './json-values.js';
import type { JsonObject } from './lossless-json.js';

/** One element of an instruments file or one instrumentDefinition, numbers lossless. */
export type InstrumentEntry = JsonObject;

// Files reach hundreds of MB (docs/service.md#instruments-files): nothing is buffered beyond the entry being
// built.
/** The entries of an instruments file one at a time, ids exact; MDGET_SERVICE unless an array of objects. */
export function parseInstrumentArray(body: Readable): AsyncGenerator<InstrumentEntry> {
  return streamJsonObjects(body, 'array-elements', 'instruments');
}
