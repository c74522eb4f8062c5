import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger, ledgerDir } from '../../src/core/dataset/ledger.js';
import { LEDGER_VERSION } from '../../src/core/dataset/ledger-schema.js';
import { openSqlite } from '../../src/core/reference/sqlite-backend.js';
import { tempDir } from '../helpers/run-cli.js';

// The schema as the first mdget that wrote ledgers left it: the files table, user_version 1.
const VERSION_1 = `CREATE TABLE files (
  path TEXT PRIMARY KEY, series TEXT NOT NULL, symbol TEXT NOT NULL,
  window_start TEXT, window_end TEXT, zone TEXT,
  rows INTEGER, bytes INTEGER NOT NULL, sha256 TEXT NOT NULL, fetched_at TEXT NOT NULL,
  provisional INTEGER NOT NULL, requests INTEGER NOT NULL, continuations INTEGER NOT NULL,
  etag TEXT, last_modified TEXT);
INSERT INTO files VALUES ('eod/AAPL.csv', 'daily', 'AAPL', '2025-01-02', '2025-03-14', 'America/New_York',
  49, 3120, 'ab', '2025-03-14T21:00:00.000Z', 0, 1, 0, NULL, NULL);
PRAGMA user_version = 1;`;

function ledgerAt(root: string, sql: string): void {
  mkdirSync(ledgerDir(root), { recursive: true });
  const db = openSqlite(join(ledgerDir(root), 'ledger.sqlite'));
  db.exec(sql);
  db.close();
}

describe('the ledger schema', () => {
  it('an older ledger opens, keeps its rows, and is brought to this version', () => {
    const root = tempDir();
    ledgerAt(root, VERSION_1);
    const ledger = Ledger.open(root);
    expect(ledger.rows().get('eod/AAPL.csv')).toMatchObject({ rows: 49, bytes: 3120, provisional: false });
    const id = ledger.startSync('2025-03-17T21:00:00.000Z', 1);
    ledger.endSync(id, { outcome: 'MDGET_PARTIAL', fetched: 1, failed: 1, failures: [] });
    expect(ledger.lastSync()).toMatchObject({ outcome: 'MDGET_PARTIAL', fetched: 1, failed: 1 });
    ledger.close();
    const db = openSqlite(join(ledgerDir(root), 'ledger.sqlite'), { readonly: true });
    expect(db.prepare('PRAGMA user_version').get()?.['user_version']).toBe(LEDGER_VERSION);
    db.close();
  });

  it('a ledger of a newer mdget is refused (MDGET_IO), to write and to read', () => {
    const root = tempDir();
    ledgerAt(
      root,
      `${VERSION_1.replace('PRAGMA user_version = 1', `PRAGMA user_version = ${LEDGER_VERSION + 1}`)}`,
    );
    expect(() => Ledger.open(root)).toThrow(/written by a newer mdget .*upgrade mdget/);
    expect(() => Ledger.openAll(root)).toThrow(expect.objectContaining({ code: 'MDGET_IO' }));
  });
});
