/** The files of a dataset as the soak harness compares them, and how a finding is named for its class. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Every file under `root` but the ledger's folder, by `/`-separated path, with its bytes. */
export function treeOf(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (at === root && name === '.mdget') continue;
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(root, path).split(sep).join('/'), readFileSync(path));
    }
  };
  walk(root);
  return files;
}

/** The data files under `root` a damage step may hit: no markers, no temporary files. */
export function dataFiles(root: string): string[] {
  let tree: Map<string, Buffer>;
  try {
    tree = treeOf(root);
  } catch {
    return [];
  }
  return [...tree.keys()].filter((path) => !path.endsWith('.provisional') && !path.endsWith('.part'));
}

/** The kind of file a dataset path is (its series' template), so that one bug on two symbols is one class. */
export function kindOf(path: string): string {
  const name = path.split('/').pop() ?? path;
  const extra = name.endsWith('.part')
    ? ' (temporary file)'
    : name.endsWith('.provisional')
      ? ' (marker)'
      : '';
  const kinds: [RegExp, string][] = [
    [/^ticks\//, 'ticks/{symbol}/{date}.csv.gz'],
    [/^minutes\//, 'minutes/{symbol}.csv'],
    [/^eod\//, 'eod/{symbol}.csv'],
    [/^events\//, 'events/{symbol}.csv'],
    [/^reference\//, 'reference/exchanges.csv'],
  ];
  const kind = kinds.find(([pattern]) => pattern.test(path))?.[1] ?? path;
  return kind + extra;
}

/** A message with what varies from run to run taken out: folders, instants, numbers, hex. */
export function signatureOf(message: string, dir: string): string {
  return message
    .split(dir)
    .join('<dir>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/\b[0-9a-f]{8,}\b/g, '<hex>')
    .replace(/\b(AAPL|MSFT|ESM25|IBM)\b/g, '<symbol>')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
}
