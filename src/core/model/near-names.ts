/** The known name a mistyped one most likely meant: at most two edits away (`intervall`, `retrys`). */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  return known.find((k) => distance(k, name) <= 2);
}

/** Edit distance of two short names, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      previous = kept;
    }
  }
  return row[b.length] as number;
}
