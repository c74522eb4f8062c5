/**
 * The ledger: `<root>/.mdget/ledger.sqlite` (`ledger.<i>-of-<n>.sqlite` for a shard), one row per file
 * a sync wrote, written only after the file is in place. Its schema carries a version (SQLite's
 * user_version); an older ledger is brought up to date when opened, a newer one is refused.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ErrorCode } from '../model/errors.js';
import { openSqlite, type SqliteDatabase, type SqliteRow } from '../reference/sqlite-backend.js';
import { ledgerError } from './ledger-errors.js';
import { checkVersion, migrate } from './ledger-schema.js';

/** The ledger's row for one file: its window, what it holds, and how it was fetched. */
export interface LedgerRow {
  /** The file's path under root, `/`-separated. */
  path: string;
  series: string;
  /** The symbol, or the exchange of an instruments file. */
  symbol: string;
  /** Market wall clock (`zone`), end exclusive. */
  windowStart?: string;
  windowEnd?: string;
  zone?: string;
  /** Data rows (no header); null when not counted. */
  rows: number | null;
  bytes: number;
  sha256: string;
  /** When it was fetched, UTC ISO. */
  fetchedAt: string;
  provisional: boolean;
  requests: number;
  continuations: number;
  /** The validators a reference file came with. */
  etag?: string;
  lastModified?: string;
  /** The file's modification time when recorded: a skipped file whose time moved is hashed again. */
  mtimeMs?: number;
  /** The settings its bytes were made with (file-form.ts); absent in a row of an older mdget. */
  form?: string;
}

/** A share of a sharded sync: its ledger is a file of its own. */
export interface Share {
  index: number;
  count: number;
}

/** The folder of a dataset's ledgers and lock files. */
export const ledgerDir = (root: string): string => join(root, '.mdget');

/** The ledger file of a sync: one per share. */
export const ledgerName = (share?: Share): string =>
  share && share.count > 1 ? `ledger.${share.index}-of-${share.count}.sqlite` : 'ledger.sqlite';

const LEDGER_FILE = /^ledger(\.\d+-of-\d+)?\.sqlite$/;

/** How a sync ended, as the ledger keeps it for `mdget status`. */
export interface SyncRecord {
  startedAt: string;
  endedAt?: string;
  /** 'ok', or the code of the error that ended it (the CLI maps it to its exit status). */
  outcome?: 'ok' | ErrorCode;
  fetched: number;
  failed: number;
  failures: { series: string; path: string; reason: string }[];
}

/** One ledger file, open. */
export class Ledger {
  private constructor(
    readonly path: string,
    private readonly db: SqliteDatabase,
    /** The folder of the copy a reader opened, removed on close. */
    private readonly copyDir?: string,
  ) {}

  /** Runs a statement; a SQLite failure becomes one line naming the ledger and the way out. */
  private guard<T>(action: () => T): T {
    try {
      return action();
    } catch (error) {
      throw ledgerError(error, this.path);
    }
  }

  /** Opens (creating it and its folder if needed) the ledger of `share` under `root`, migrated. */
  static open(root: string, share?: Share): Ledger {
    const dir = ledgerDir(root);
    const path = join(dir, ledgerName(share));
    try {
      mkdirSync(dir, { recursive: true });
      const db = openSqlite(path);
      // WAL: a commit per file costs no fsync of its own; a crash loses at most the last rows, which
      // the next sync finds again from the files themselves.
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000');
      migrate(db, path);
      return new Ledger(path, db);
    } catch (error) {
      throw ledgerError(error, path);
    }
  }

  /**
   * Every ledger file under `root`, for reading (none: an empty list). Each is read from a copy in the
   * system's temporary folder (its write-ahead log with it): SQLite writes beside a WAL database even to
   * read it, and status and verify never write into the dataset.
   */
  static openAll(root: string): Ledger[] {
    const dir = ledgerDir(root);
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => LEDGER_FILE.test(name));
    } catch {
      return [];
    }
    const opened: Ledger[] = [];
    try {
      for (const name of names.sort()) opened.push(Ledger.openCopy(join(dir, name)));
    } catch (error) {
      for (const ledger of opened) ledger.close();
      throw error;
    }
    return opened;
  }

  private static openCopy(path: string): Ledger {
    const copyDir = mkdtempSync(join(tmpdir(), 'mdget-ledger-'));
    try {
      const copy = join(copyDir, 'ledger.sqlite');
      copyFileSync(path, copy);
      if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
      const db = openSqlite(copy);
      try {
        checkVersion(db, path, true);
        // the copy is brought up to date, never the file: an older ledger, or one cut short (no tables)
        migrate(db, path);
        return new Ledger(path, db, copyDir);
      } catch (error) {
        db.close();
        throw error;
      }
    } catch (error) {
      rmSync(copyDir, { recursive: true, force: true });
      throw ledgerError(error, path);
    }
  }

  /** Every row, by path. */
  rows(): Map<string, LedgerRow> {
    const rows = new Map<string, LedgerRow>();
    for (const row of this.guard(() => this.db.prepare('SELECT * FROM files').all()))
      rows.set(String(row['path']), rowOf(row));
    return rows;
  }

  /** Writes (or replaces) the row of one file, in a transaction of its own. */
  put(row: LedgerRow): void {
    this.guard(() => this.putRow(row));
  }

  private putRow(row: LedgerRow): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO files (path, series, symbol, window_start, window_end, zone, rows, bytes,
           sha256, fetched_at, provisional, requests, continuations, etag, last_modified, mtime_ms, form)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.path,
        row.series,
        row.symbol,
        row.windowStart ?? null,
        row.windowEnd ?? null,
        row.zone ?? null,
        row.rows,
        row.bytes,
        row.sha256,
        row.fetchedAt,
        row.provisional ? 1 : 0,
        row.requests,
        row.continuations,
        row.etag ?? null,
        row.lastModified ?? null,
        row.mtimeMs ?? null,
        row.form ?? null,
      );
  }

  /** Records new modification times of files whose bytes were found unchanged, in one transaction. */
  touch(times: readonly { path: string; mtimeMs: number }[]): void {
    if (times.length === 0) return;
    this.guard(() => {
      const update = this.db.prepare('UPDATE files SET mtime_ms = ? WHERE path = ?');
      this.db.exec('BEGIN IMMEDIATE');
      try {
        for (const t of times) update.run(t.mtimeMs, t.path);
        this.db.exec('COMMIT');
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /** Forgets the row of a file (verify found it gone and sync could not fetch it again). */
  remove(path: string): void {
    this.guard(() => this.db.prepare('DELETE FROM files WHERE path = ?').run(path));
  }

  /** Records the start of a sync; returns its id. */
  startSync(startedAt: string, pid: number): number {
    return this.guard(() => {
      this.db.prepare('INSERT INTO syncs (started_at, pid) VALUES (?, ?)').run(startedAt, pid);
      return Number(this.db.prepare('SELECT max(id) AS id FROM syncs').get()?.['id']);
    });
  }

  /** Records how a sync ended, with the files that failed, in one transaction. */
  endSync(id: number, record: Omit<SyncRecord, 'startedAt'>): void {
    this.guard(() => this.endSyncRow(id, record));
  }

  private endSyncRow(id: number, record: Omit<SyncRecord, 'startedAt'>): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.db
        .prepare('UPDATE syncs SET ended_at = ?, outcome = ?, fetched = ?, failed = ? WHERE id = ?')
        .run(record.endedAt ?? null, record.outcome ?? null, record.fetched, record.failed, id);
      const insert = this.db.prepare(
        'INSERT INTO failures (sync_id, series, path, reason) VALUES (?, ?, ?, ?)',
      );
      for (const f of record.failures) insert.run(id, f.series, f.path, f.reason);
      this.db.exec('COMMIT');
    } catch (error) {
      // a failed COMMIT may have rolled back already: the first error is the one to tell
      try {
        this.db.exec('ROLLBACK');
      } catch {}
      throw error;
    }
  }

  /** The last sync this ledger recorded, if any. */
  lastSync(): SyncRecord | undefined {
    return this.guard(() => this.lastSyncRow());
  }

  private lastSyncRow(): SyncRecord | undefined {
    const row = this.db.prepare('SELECT * FROM syncs ORDER BY id DESC LIMIT 1').get();
    if (!row) return undefined;
    const failures = this.db
      .prepare('SELECT series, path, reason FROM failures WHERE sync_id = ?')
      .all(row['id'] as number)
      .map((f) => ({ series: String(f['series']), path: String(f['path']), reason: String(f['reason']) }));
    return {
      startedAt: String(row['started_at']),
      ...(row['ended_at'] === null ? {} : { endedAt: String(row['ended_at']) }),
      ...(row['outcome'] === null || row['outcome'] === undefined
        ? {}
        : { outcome: String(row['outcome']) as 'ok' | ErrorCode }),
      fetched: Number(row['fetched']),
      failed: Number(row['failed']),
      failures,
    };
  }

  close(): void {
    try {
      this.db.close();
    } finally {
      if (this.copyDir) rmSync(this.copyDir, { recursive: true, force: true });
    }
  }
}

// One object a row, its optional fields set only when present: a ledger of 100,000 files is read on
// every sync, and spreads of small objects cost more there than the query.
function rowOf(row: SqliteRow): LedgerRow {
  const out: LedgerRow = {
    path: String(row['path']),
    series: String(row['series']),
    symbol: String(row['symbol']),
    rows: row['rows'] === null ? null : Number(row['rows']),
    bytes: Number(row['bytes']),
    sha256: String(row['sha256']),
    fetchedAt: String(row['fetched_at']),
    provisional: Number(row['provisional']) === 1,
    requests: Number(row['requests']),
    continuations: Number(row['continuations']),
  };
  if (row['window_start'] != null) out.windowStart = String(row['window_start']);
  if (row['window_end'] != null) out.windowEnd = String(row['window_end']);
  if (row['zone'] != null) out.zone = String(row['zone']);
  if (row['etag'] != null) out.etag = String(row['etag']);
  if (row['last_modified'] != null) out.lastModified = String(row['last_modified']);
  if (row['mtime_ms'] != null) out.mtimeMs = Number(row['mtime_ms']);
  if (row['form'] != null) out.form = String(row['form']);
  return out;
}
