/**
 * The line of each key of a TOML text, so that a mistake found after parsing is reported at its line. A
 * light scan of the lines TOML allows for the dataset file: `[table]`, `[[array]]`, `key = value` with
 * bare, quoted or dotted keys, and inline tables on one line. A key it cannot place falls back to the
 * line of the nearest enclosing key it knows.
 */

/** A key's path: table names and array indexes, as `['series', 0, 'options', 'interval']`. */
export type KeyPath = readonly (string | number)[];

/** Returns the 1-based line of a key path, or of its nearest known parent (undefined when none is). */
export type KeyLocator = (path: KeyPath) => number | undefined;

const HEADER = /^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;
const ASSIGNMENT =
  /^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=/;
const INLINE_KEY =
  /[{,]\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=/g;

const keyParts = (text: string): string[] =>
  text.split(/\s*\.\s*(?=(?:[^"']|"[^"]*"|'[^']*')*$)/).map((part) => part.replace(/^["']|["']$/g, ''));

const pathKey = (path: KeyPath): string => JSON.stringify(path);

/** Scans `text` once and answers for any key path of it. */
export function keyLocator(text: string): KeyLocator {
  const lines = new Map<string, number>();
  const counts = new Map<string, number>();
  let table: (string | number)[] = [];
  let inMultiline = false;
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const number = index + 1;
    // Multi-line strings hold no keys.
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (inMultiline) {
      if (quotes % 2 === 1) inMultiline = false;
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      const names = keyParts(header[2] ?? '');
      if (header[1] === '[[') {
        const key = pathKey(names);
        const at = counts.get(key) ?? 0;
        counts.set(key, at + 1);
        table = [...names, at];
      } else {
        // `[series.options]` belongs to the last `[[series]]`.
        const base = names.slice(0, -1);
        const at = counts.get(pathKey(base));
        table = at === undefined ? names : [...base, at - 1, names.at(-1) ?? ''];
      }
      if (!lines.has(pathKey(table))) lines.set(pathKey(table), number);
      continue;
    }
    const assignment = ASSIGNMENT.exec(line);
    if (!assignment) continue;
    const path = [...table, ...keyParts(assignment[1] ?? '')];
    lines.set(pathKey(path), number);
    for (const inner of line.slice(assignment[0].length).matchAll(INLINE_KEY))
      lines.set(pathKey([...path, ...keyParts(inner[1] ?? '')]), number);
    if (quotes % 2 === 1) inMultiline = true;
  }
  return (path) => {
    for (let length = path.length; length > 0; length--) {
      const line = lines.get(pathKey(path.slice(0, length)));
      if (line !== undefined) return line;
    }
    return undefined;
  };
}
