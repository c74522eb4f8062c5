// `node bench/sqlite-insert.js <instruments.json> <out.db>`: times writeSqlite alone, fed from memory, so
// two Nodes compare only their SQLite module (better-sqlite3 on Node 20, node:sqlite on Node 24); the
// JSON is parsed before the clock starts. Prints one JSON line. Used by bench/sea.js.
import { createReadStream, rmSync } from 'node:fs';
import { parseInstrumentArray } from '../dist/core/reference/instrument-stream.js';
import { sqliteBackend } from '../dist/core/reference/sqlite-backend.js';
import { writeSqlite } from '../dist/core/reference/sqlite-writer.js';

const [json, db] = process.argv.slice(2);
const entries = [];
for await (const entry of parseInstrumentArray(createReadStream(json))) entries.push(entry);
async function* fromMemory() {
  yield* entries;
}
rmSync(db, { force: true });
const cpu = process.cpuUsage();
const started = performance.now();
await writeSqlite(fromMemory(), db);
const ms = performance.now() - started;
const { user, system } = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    node: process.version,
    backend: sqliteBackend(),
    entries: entries.length,
    ms,
    cpuMs: (user + system) / 1000,
  }),
);
