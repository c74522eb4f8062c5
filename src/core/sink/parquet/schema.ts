import type { SchemaElement } from 'hyparquet';
import type { ParquetColumn } from './column-batch.js';

/**
 * The Parquet schema of an output's columns: flat, every column OPTIONAL (an empty field is null). The
 * time is TIMESTAMP(MILLIS): adjusted to UTC for instants (--utc, --tz), else the service's wall clock.
 */
export function schemaOf(columns: readonly ParquetColumn[], utc: boolean): SchemaElement[] {
  return [
    { name: 'schema', num_children: columns.length },
    ...columns.map((column) => elementOf(column, utc)),
  ];
}

function elementOf({ name, type }: ParquetColumn, utc: boolean): SchemaElement {
  const optional = { name, repetition_type: 'OPTIONAL' } as const;
  switch (type) {
    case 'string':
      return { ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'timestamp':
      return {
        ...optional,
        type: 'INT64',
        // the converted type implies UTC: a wall-clock time carries the logical type alone
        ...(utc ? { converted_type: 'TIMESTAMP_MILLIS' as const } : {}),
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: utc, unit: 'MILLIS' },
      };
    case 'date':
      return { ...optional, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'int32':
      return { ...optional, type: 'INT32' };
    case 'int64':
      return { ...optional, type: 'INT64' };
    case 'double':
      return { ...optional, type: 'DOUBLE' };
  }
}
