/**
 * `verify`: proves that what is on disk is what was fetched. Every file a ledger records is re-hashed
 * (missing, changed, unreadable); files under a series' path that no ledger knows are reported; and
 * suspicious gaps (verify-gaps.ts) are found. It sends no request.
 */
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Dataset } from './dataset.js';
import { fileFacts } from './file-facts.js';
import { Ledger, type LedgerRow } from './ledger.js';
import { mergedRows } from './merged-rows.js';
import { barGaps, windowGaps } from './verify-gaps.js';

export type FindingKind = 'missing' | 'changed' | 'unreadable' | 'unknown' | 'gap';

/** One thing verify found: its kind, the file under root, and a sentence. */
export interface Finding {
  kind: FindingKind;
  path: string;
  series?: string;
  detail: string;
}

export interface VerifyResult {
  /** Files re-hashed. */
  checked: number;
  findings: Finding[];
}

/** Verifies `dataset` against every ledger under its root. */
export async function verifyDataset(dataset: Dataset): Promise<VerifyResult> {
  const ledgers = Ledger.openAll(dataset.root);
  let rows: Map<string, LedgerRow>;
  try {
    rows = mergedRows(ledgers);
  } finally {
    for (const ledger of ledgers) ledger.close();
  }
  const findings: Finding[] = [];
  for (const row of [...rows.values()].sort((a, b) => a.path.localeCompare(b.path)))
    findings.push(...(await checkFile(dataset.root, row)));
  findings.push(...(await unknownFiles(dataset, rows)));
  const series = new Map(dataset.series.map((s) => [s.name, s]));
  const windowed = [...rows.values()].filter((r) => {
    const kind = series.get(r.series)?.kind;
    return (kind === 'ticks' || kind === 'minutes') && !series.get(r.series)?.growing;
  });
  for (const gap of windowGaps(windowed)) findings.push({ kind: 'gap', ...gap });
  for (const row of rows.values()) {
    if (series.get(row.series)?.kind !== 'eod') continue;
    const gaps = await barGaps(row.path, join(dataset.root, row.path), row).catch(() => []);
    for (const gap of gaps) findings.push({ kind: 'gap', ...gap });
  }
  return { checked: rows.size, findings };
}

async function checkFile(root: string, row: LedgerRow): Promise<Finding[]> {
  const at = { path: row.path, series: row.series };
  let facts: Awaited<ReturnType<typeof fileFacts>>;
  try {
    facts = await fileFacts(join(root, row.path));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') return [{ kind: 'missing', ...at, detail: 'recorded by the ledger, not on disk' }];
    return [{ kind: 'unreadable', ...at, detail: `cannot read it (${code ?? (error as Error).message})` }];
  }
  if (facts.bytes !== row.bytes)
    return [{ kind: 'changed', ...at, detail: `${facts.bytes} bytes, the ledger recorded ${row.bytes}` }];
  if (facts.sha256 !== row.sha256)
    return [{ kind: 'changed', ...at, detail: 'same size, different SHA-256 from the ledger' }];
  return [];
}

/** Files under a series' folder that match its path template and no ledger knows. */
async function unknownFiles(dataset: Dataset, rows: ReadonlyMap<string, LedgerRow>): Promise<Finding[]> {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const series of dataset.series) {
    const template = String(series.options.output);
    const base = template.slice(0, template.indexOf('{') === -1 ? template.length : template.indexOf('{'));
    const dir = base.slice(0, base.lastIndexOf(sep) + 1) || dataset.root;
    const pattern = templatePattern(template);
    for (const file of await filesUnder(dir)) {
      if (!pattern.test(file) || seen.has(file)) continue;
      seen.add(file);
      const key = relative(dataset.root, file).split(sep).join('/');
      if (!rows.has(key))
        findings.push({
          kind: 'unknown',
          path: key,
          series: series.name,
          detail: `matches the path of series ${series.name}; no ledger records it`,
        });
    }
  }
  return findings;
}

const templatePattern = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/\{[a-z]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join(`[^${sep === '\\' ? '\\\\' : '/'}]+`)}$`,
  );

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}
