/** One CSV field per RFC 4180: quoted only when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV record with its LF terminator. */
export function csvLine(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + '\n';
}
