import { createRequire } from 'node:module';
import type BetterSqlite from 'better-sqlite3';

/** A value SQLite can bind or return: TEXT, INTEGER (number or exact bigint), REAL, NULL. */
export type SqliteValue = string | number | bigint | null;

/** A row as both backends return it: column name → value. */
export type SqliteRow = Record<string, SqliteValue>;

/** A prepared statement: the part of the API that better-sqlite3 and node:sqlite share. */
export interface SqliteStatement {
  run(...values: SqliteValue[]): unknown;
  get(...values: SqliteValue[]): SqliteRow | undefined;
  all(...values: SqliteValue[]): SqliteRow[];
}

/** An open database, whichever module opened it. */
export interface SqliteDatabase {
  /** `node:sqlite` or `better-sqlite3`. */
  readonly backend: SqliteBackendName;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** The module behind a `SqliteDatabase`. */
export type SqliteBackendName = 'node:sqlite' | 'better-sqlite3';

/** How to open: `readonly` needs an existing file; `bigints` reads every INTEGER as a bigint. */
export interface OpenSqliteOptions {
  readonly?: boolean;
  bigints?: boolean;
}

// The slice of node:sqlite used here, declared locally: @types/node follows Node 20, which has no sqlite.
interface NodeSqliteStatement {
  run(...values: SqliteValue[]): unknown;
  get(...values: SqliteValue[]): SqliteRow | undefined;
  all(...values: SqliteValue[]): SqliteRow[];
  setReadBigInts(enabled: boolean): void;
}
interface NodeSqlite {
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean },
  ) => {
    exec(sql: string): void;
    prepare(sql: string): NodeSqliteStatement;
    close(): void;
  };
}

// The one Node-version-specific place in mdget. Node 24 ships SQLite as the built-in
// node:sqlite. The single binary (Node 24) cannot embed a native addon, and node:sqlite is what keeps it
// one self-contained file; under npm on Node 24 it also spares users an addon built for their exact Node
// ABI (and better-sqlite3 12.11.1 built for Node 24 aborted in a Statement destructor during GC when we
// measured it). Node 20 has no node:sqlite, and Node 22 (22.13 to 22.23 at least) prints an
// ExperimentalWarning on stderr when it loads, so both keep the dependency better-sqlite3.
const builtinSqlite = (): NodeSqlite | undefined =>
  Number(process.versions.node.split('.')[0]) >= 24
    ? (process.getBuiltinModule('node:sqlite') as NodeSqlite | undefined)
    : undefined;

/** The SQLite module `openSqlite` uses on this Node. */
export const sqliteBackend = (): SqliteBackendName => (builtinSqlite() ? 'node:sqlite' : 'better-sqlite3');

/** Opens (or creates, unless `readonly`) the database at `path` with node:sqlite if Node has it, else better-sqlite3. */
export function openSqlite(path: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  const builtin = builtinSqlite();
  if (builtin) {
    const db = new builtin.DatabaseSync(path, { readOnly: options.readonly ?? false });
    return {
      backend: 'node:sqlite',
      exec: (sql) => db.exec(sql),
      prepare: (sql) => {
        const statement = db.prepare(sql);
        if (options.bigints) statement.setReadBigInts(true);
        return statement;
      },
      close: () => db.close(),
    };
  }
  // Loaded only here, so that Node 24 never touches the addon (built for another Node's ABI) at all.
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite;
  const db = new Database(path, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
  });
  return {
    backend: 'better-sqlite3',
    exec: (sql) => {
      db.exec(sql);
    },
    prepare: (sql) => {
      const statement = db.prepare<SqliteValue[], SqliteRow>(sql);
      if (options.bigints) statement.safeIntegers(true);
      return statement;
    },
    close: () => {
      db.close();
    },
  };
}

const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;

/** Whether `error` is an INSERT that hit an existing primary key, as either backend reports it. */
export function isPrimaryKeyConflict(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || errcode === SQLITE_CONSTRAINT_PRIMARYKEY;
}
