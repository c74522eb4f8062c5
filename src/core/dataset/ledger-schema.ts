/**
 * The ledger's schema and its versions (SQLite's user_version): each step of MIGRATIONS brings a ledger
 * one version up; an older ledger is brought up to date when a sync opens it, a newer one is refused.
 */
import { MdgetError } from '../model/errors.js';
import type { SqliteDatabase } from '../reference/sqlite-backend.js';

// Each step brings a ledger from version i to i + 1; a ledger of version n has run the first n.
const MIGRATIONS = [
  `CREATE TABLE files (
     path TEXT PRIMARY KEY, series TEXT NOT NULL, symbol TEXT NOT NULL,
     window_start TEXT, window_end TEXT, zone TEXT,
     rows INTEGER, bytes INTEGER NOT NULL, sha256 TEXT NOT NULL, fetched_at TEXT NOT NULL,
     provisional INTEGER NOT NULL, requests INTEGER NOT NULL, continuations INTEGER NOT NULL,
     etag TEXT, last_modified TEXT)`,
  `CREATE TABLE syncs (
     id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, ended_at TEXT, outcome TEXT,
     fetched INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0, pid INTEGER);
   CREATE TABLE failures (sync_id INTEGER NOT NULL, series TEXT NOT NULL, path TEXT NOT NULL, reason TEXT NOT NULL)`,
  `ALTER TABLE files ADD COLUMN mtime_ms REAL;
   ALTER TABLE files ADD COLUMN form TEXT`,
];

/** The schema version this mdget writes. */
export const LEDGER_VERSION = MIGRATIONS.length;

/** Brings the ledger at `path` to LEDGER_VERSION, a step a transaction. */
export function migrate(db: SqliteDatabase, path: string): void {
  const version = checkVersion(db, path, false);
  for (let step = version; step < LEDGER_VERSION; step++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(MIGRATIONS[step] ?? '');
      db.exec(`PRAGMA user_version = ${step + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

/** The schema version of a ledger; a newer one than this mdget knows is refused (exit 6). */
export function checkVersion(db: SqliteDatabase, path: string, reading: boolean): number {
  const version = Number(db.prepare('PRAGMA user_version').get()?.['user_version'] ?? 0);
  if (version > LEDGER_VERSION)
    throw new MdgetError(
      'MDGET_IO',
      `${path}: written by a newer mdget (ledger schema ${version}; this one ${reading ? 'reads' : 'writes'} up to ${LEDGER_VERSION}): upgrade mdget`,
    );
  return version;
}
