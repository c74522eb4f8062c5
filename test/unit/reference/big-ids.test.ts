import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCapture } from '../../../src/core/reference/capture.js';
import { type InstrumentEntry, parseInstrumentArray } from '../../../src/core/reference/instrument-stream.js';
import { writeSqlite } from '../../../src/core/reference/sqlite-writer.js';
import { writeTables } from '../../../src/core/reference/table-writers.js';
import { openDb } from '../../helpers/sqlite.js';
import { TextSink } from './helpers.js';

// 2^53 + 1 and 2^63 - 1: a double would print 9007199254740992 and 9223372036854775808.
const IDS = ['9007199254740993', '9223372036854775807'];
const ROUNDED = ['9007199254740992', '9223372036854775808', '9223372036854776000'];

const sources: [string, () => AsyncIterable<InstrumentEntry>][] = [
  [
    'instruments file, ids as bare numbers',
    () =>
      parseInstrumentArray(
        Readable.from([`[${IDS.map((id) => `{"marketId":${id},"symbol":"S${id}"}`).join(',')}]`]),
      ),
  ],
  [
    'instruments file, ids as strings',
    () =>
      parseInstrumentArray(
        Readable.from([`[${IDS.map((id) => `{"marketId":"${id}","symbol":"S${id}"}`).join(',')}]`]),
      ),
  ],
  [
    'capture, ids as bare numbers',
    () =>
      readCapture(() =>
        Readable.from([
          `{"instrumentResponse":{"status":{"result":"SUCCESS"},"numberOfDefinitions":2,"exchange":"X"}}\n` +
            IDS.map((id) => `{"instrumentDefinition":{"marketId":${id},"symbol":"S${id}"}}\n`).join(''),
        ]),
      ),
  ],
];

describe.each(sources)('an id above 2^53 from the %s', (_name, entries) => {
  it.each(['ndjson', 'csv', 'json'] as const)('survives byte-exact into %s', async (format) => {
    const sink = new TextSink();
    await writeTables(format, entries(), sink);
    for (const id of IDS) expect(sink.text).toMatch(new RegExp(`(^|[^0-9])${id}([^0-9]|$)`, 'm'));
    for (const rounded of ROUNDED) expect(sink.text).not.toContain(rounded);
  });

  it('survives byte-exact into sqlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mdget-ids-'));
    try {
      const target = join(dir, 'ids.sqlite');
      await writeSqlite(entries(), target);
      const db = openDb(target);
      const rows = db
        .prepare('SELECT market_id, symbol FROM instruments ORDER BY rowid')
        .safeIntegers(true)
        .all();
      db.close();
      expect(rows).toEqual(IDS.map((id) => ({ market_id: id, symbol: `S${id}` })));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
