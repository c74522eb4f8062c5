/**
 * The checks every table of a dataset file goes through: a table where one is expected, known keys only
 * (with the nearest known one for a typo), and output paths that stay under root.
 */
import { isAbsolute, join, normalize } from 'node:path';
import type { MdgetError } from '../model/errors.js';
import { nearestName } from '../model/near-names.js';
import { checkOutputPath, placeholdersOf } from '../plan/templates.js';
import type { KeyPath } from './key-lines.js';
import { show } from './series-options.js';

export type Table = Record<string, unknown>;

/** What a check needs: root, and how to name and fail at a key of the file. */
export interface Checking {
  base?: string;
  root: string;
  at: (path: KeyPath) => string;
  fail: (path: KeyPath, message: string) => MdgetError;
}

/** The absolute template of a path under root: relative, inside root, a known placeholder each. */
export function outputOf(path: string, root: string, fail: (message: string) => MdgetError): string {
  if (isAbsolute(path)) throw fail(`path ${path}: give it relative to root, which every file goes under`);
  if (normalize(path).split(/[\\/]/).includes('..'))
    throw fail(`path ${path}: leaves root; every file of a dataset stays under it`);
  if (/[\\/]?\.mdget([\\/]|$)/.test(path) || path.startsWith('.mdget'))
    throw fail(`path ${path}: .mdget holds the ledger; write data elsewhere`);
  try {
    checkOutputPath(path, 'path');
  } catch (error) {
    throw fail((error as Error).message);
  }
  if (placeholdersOf(path).includes('ext'))
    throw fail(`path ${path}: write the extension itself (.csv, .csv.gz, .ndjson): it sets the format`);
  return join(root, path);
}

export function tableOf(
  value: unknown,
  path: KeyPath,
  what: string,
  fail: (path: KeyPath, message: string) => MdgetError,
): Table {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date)
    throw fail(path, `${what} must be a table, not ${show(value)}`);
  return value as Table;
}

export function unknownKeys(
  table: Table,
  known: readonly string[],
  path: KeyPath,
  fail: (path: KeyPath, message: string) => MdgetError,
): void {
  for (const key of Object.keys(table)) {
    if (known.includes(key)) continue;
    const near = nearestName(key, known);
    throw fail(
      [...path, key],
      `unknown key ${key}${near ? ` (did you mean ${near}?)` : ''}; the keys are ${known.join(', ')}`,
    );
  }
}
