import type { ColumnType } from '../../model/column-types.js';

/** A column of a Parquet output: its csv name and its type. */
export interface ParquetColumn {
  readonly name: string;
  readonly type: ColumnType;
}

/** Numbers of one column: int32 and date (days) as Int32Array, the rest as doubles holding exact integers. */
export interface NumberColumn {
  readonly type: Exclude<ColumnType, 'string'>;
  values: Float64Array | Int32Array;
  /** 1 where the row has a value, 0 where it is null. */
  present: Uint8Array;
  nulls: number;
}

/** Text of one column, dictionary-coded within the batch (a row group has its own dictionary). */
export interface StringColumn {
  readonly type: 'string';
  codes: Int32Array;
  readonly dictionary: string[];
  readonly codeOf: Map<string, number>;
  present: Uint8Array;
  nulls: number;
}

export type BatchColumn = NumberColumn | StringColumn;

/** Rows a batch starts with room for; it doubles up to its limit, so a small file stays small. */
const FIRST_CAPACITY = 4096;

/**
 * The rows of one row group, column by column, filled in place by a reader (csv-columns.ts, the profile
 * tables) and emptied once the writer has encoded them: the same arrays serve every row group.
 */
export class ColumnBatch {
  rows = 0;
  /** Input bytes the rows came from: a row group is also closed by size (wide rows, long texts). */
  bytes = 0;
  readonly columns: BatchColumn[];
  private capacity = FIRST_CAPACITY;

  constructor(readonly schema: readonly ParquetColumn[]) {
    this.columns = schema.map(({ type }) =>
      type === 'string'
        ? {
            type,
            codes: new Int32Array(FIRST_CAPACITY),
            dictionary: [],
            codeOf: new Map<string, number>(),
            present: new Uint8Array(FIRST_CAPACITY),
            nulls: 0,
          }
        : {
            type,
            values:
              type === 'int32' || type === 'date'
                ? new Int32Array(FIRST_CAPACITY)
                : new Float64Array(FIRST_CAPACITY),
            present: new Uint8Array(FIRST_CAPACITY),
            nulls: 0,
          },
    );
  }

  /** Makes room for one more row. */
  reserve(): void {
    if (this.rows < this.capacity) return;
    this.capacity *= 2;
    for (const column of this.columns) {
      column.present = grown(column.present, this.capacity);
      if (column.type === 'string') column.codes = grown(column.codes, this.capacity);
      else column.values = grown(column.values, this.capacity);
    }
  }

  /** Sets row `row` of text column `index` (the caller reserved it). */
  setString(index: number, row: number, value: string): void {
    const column = this.columns[index] as StringColumn;
    let code = column.codeOf.get(value);
    if (code === undefined) {
      code = column.dictionary.length;
      column.dictionary.push(value);
      column.codeOf.set(value, code);
    }
    column.codes[row] = code;
    column.present[row] = 1;
  }

  /** Sets row `row` of a number column. */
  setNumber(index: number, row: number, value: number): void {
    const column = this.columns[index] as NumberColumn;
    column.values[row] = value;
    column.present[row] = 1;
  }

  /** Marks row `row` of column `index` null. */
  setNull(index: number, row: number): void {
    const column = this.columns[index] as BatchColumn;
    column.present[row] = 0;
    column.nulls += 1;
  }

  /** Empties the batch for the next row group (its arrays kept). */
  clear(): void {
    this.rows = 0;
    this.bytes = 0;
    for (const column of this.columns) {
      column.nulls = 0;
      if (column.type === 'string') {
        column.dictionary.length = 0;
        column.codeOf.clear();
      }
    }
  }
}

function grown<T extends Uint8Array | Int32Array | Float64Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
