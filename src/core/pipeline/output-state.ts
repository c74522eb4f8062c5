import type { OutputFormat } from '../model/formats.js';
import type { RecordShape } from '../model/record-shapes.js';
import { isTextColumn } from '../model/records.js';

export type { OutputFormat } from '../model/formats.js';

/** State of one output shared by every response written to it: the csv header and JSON brackets go once. */
export interface OutputState {
  format: OutputFormat;
  header: boolean;
  /** The csv columns fixed for the output before any response (record-shapes.ts outputColumns). */
  columns: readonly string[] | undefined;
  /** --columns: the indices of `columns` written, in order. */
  pick?: readonly number[];
  /** Whether anything was written yet (after it, the header can no longer go first). */
  headerWritten: boolean;
  jsonItems: number;
  /** A JSON body went through unchanged: the output is the service's document, nothing to close. */
  passedThrough: boolean;
}

export const newOutputState = (
  format: OutputFormat,
  header: boolean,
  columns?: readonly string[],
): OutputState => ({ format, header, columns, headerWritten: false, jsonItems: 0, passedThrough: false });

/** The column names written: the output's columns, picked and ordered by --columns. */
export function writtenColumns(state: OutputState): readonly string[] | undefined {
  const { columns, pick } = state;
  return columns && pick ? pick.map((index) => columns[index]!) : columns;
}

/** Bytes that close an output after its last response: the JSON array's bracket, or a lone csv header. */
export function closingBytes(state: OutputState): string {
  // A zero-record csv still says what it would have held (docs/formats.md#csv).
  const header = writtenColumns(state);
  if (state.format === 'csv')
    return state.header && !state.headerWritten && header ? `${header.join(',')}\n` : '';
  if (state.format !== 'json' || state.passedThrough) return '';
  return state.jsonItems === 0 ? '[]\n' : '\n]\n';
}

const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * One record as a JSON object: numbers keep their exact text, empty fields are null
 * (docs/formats.md#json-typing).
 */
export function recordToJson(line: string, names: readonly string[] | undefined, shape: RecordShape): string {
  const fields = line.split(',');
  const keys = names && names.length === fields.length ? names : shape.header(fields.length, false);
  const parts: string[] = [];
  fields.forEach((field, i) => {
    const key = keys?.[i] ?? `field${i + 1}`;
    parts.push(`${JSON.stringify(key)}:${jsonValue(field, isTextColumn(key))}`);
  });
  return `{${parts.join(',')}}`;
}

/** One csv field as a JSON value: null when empty, a number's own text outside text columns, else a string. */
export function jsonValue(field: string, isText: boolean): string {
  return field === '' ? 'null' : !isText && NUMBER_RE.test(field) ? field : JSON.stringify(field);
}
