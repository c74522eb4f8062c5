import { createRequire } from 'node:module';
import type BetterSqlite from 'better-sqlite3';
import { sqliteBackend } from '../../src/core/reference/sqlite-backend.js';

/** The part of better-sqlite3's statement API the tests read databases with. */
export interface TestStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  pluck(): TestStatement;
  safeIntegers(enabled?: boolean): TestStatement;
}

/** A database opened read-only for assertions. */
export interface TestDb {
  prepare(sql: string): TestStatement;
  close(): void;
}

interface NodeStatement {
  all(...params: unknown[]): Record<string, unknown>[];
  get(...params: unknown[]): Record<string, unknown> | undefined;
  setReadBigInts(enabled: boolean): void;
}
interface NodeSqlite {
  DatabaseSync: new (
    path: string,
    options: { readOnly: boolean },
  ) => { prepare(sql: string): NodeStatement; close(): void };
}

/**
 * Opens `path` read-only with the module mdget writes with on this Node (node:sqlite on Node 24, the
 * Node-20-built better-sqlite3 on Node 20, which Node 24 cannot load), always in better-sqlite3's shape.
 */
export function openDb(path: string): TestDb {
  if (sqliteBackend() === 'better-sqlite3') {
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite;
    return new Database(path, { readonly: true, fileMustExist: true });
  }
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as NodeSqlite;
  const db = new DatabaseSync(path, { readOnly: true });
  const wrap = (statement: NodeStatement, plucked: boolean): TestStatement => {
    const first = (row: Record<string, unknown> | undefined) => (row ? Object.values(row)[0] : undefined);
    return {
      all: (...params) => (plucked ? statement.all(...params).map(first) : statement.all(...params)),
      get: (...params) => (plucked ? first(statement.get(...params)) : statement.get(...params)),
      pluck: () => wrap(statement, true),
      safeIntegers: (enabled = true) => {
        statement.setReadBigInts(enabled);
        return wrap(statement, plucked);
      },
    };
  };
  return { prepare: (sql) => wrap(db.prepare(sql), false), close: () => db.close() };
}
