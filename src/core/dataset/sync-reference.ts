/**
 * The reference files of a dataset, refreshed only when the service says they changed: each request
 * carries the validators (ETag, Last-Modified) of the file on disk, and a 304 leaves file and row alone.
 */
import { relative, sep } from 'node:path';
import { toMdgetError } from '../http/to-mdget-error.js';
import type { Config } from '../model/config.js';
import type { MdgetError } from '../model/errors.js';
import { type Exchange, resolveExchange } from '../reference/exchanges.js';
import { type ExchangesFormat, exchangesTo } from '../reference/exchanges-format.js';
import { exchangesIfChanged, instrumentsIfChanged } from '../reference/fetch.js';
import type { FetchedExchanges, InstrumentsFormat, ReferenceRunDeps } from '../reference/options.js';
import { checkOutput, writeEntries, writeOutput } from '../reference/output.js';
import { writeTo } from '../sink/atomic-file.js';
import type { ReferenceFile } from './dataset.js';
import { fileFacts } from './file-facts.js';
import type { Ledger, LedgerRow } from './ledger.js';

/** What happened to one reference file. */
export interface ReferenceOutcome {
  path: string;
  kind: ReferenceFile['kind'];
  exchange?: string;
  /** written: new bytes; unchanged: fetched, same bytes; not-modified: the service answered 304. */
  status: 'written' | 'unchanged' | 'not-modified' | 'failed';
  error?: MdgetError;
}

interface Context {
  config: Config;
  root: string;
  ledger: Ledger;
  rows: ReadonlyMap<string, LedgerRow>;
  now: () => Date;
  deps: ReferenceRunDeps;
}

const keyOf = (root: string, path: string) => relative(root, path).split(sep).join('/');

/** Refreshes every reference file; a failure is the outcome of its file, not of the others. */
export async function syncReference(
  files: readonly ReferenceFile[],
  ctx: Context,
): Promise<ReferenceOutcome[]> {
  if (files.length === 0) return [];
  const outcomes: ReferenceOutcome[] = [];
  const listFile = files.find((f) => f.kind === 'exchanges');
  const instruments = files.filter((f) => f.kind === 'instruments');
  // An instruments file named by description needs the list to find its id, until its row keeps the id.
  const needList = instruments.some((f) => !ctx.rows.has(keyOf(ctx.root, f.path)));
  let list: FetchedExchanges | 'not-modified' = 'not-modified';
  if (listFile || needList) {
    try {
      const since = needList || !listFile ? {} : await validatorsOf(listFile, ctx);
      list = await exchangesIfChanged(ctx.config, ctx.deps, since);
    } catch (error) {
      const failure = toMdgetError(error);
      return files.map((f) => ({ ...outcomeOf(f), status: 'failed', error: failure }));
    }
  }
  if (listFile) outcomes.push(await keepExchanges(listFile, list, ctx));
  for (const file of instruments) outcomes.push(await keepInstruments(file, list, ctx));
  return outcomes;
}

const outcomeOf = (file: ReferenceFile) => ({
  path: file.path,
  kind: file.kind,
  ...(file.exchange === undefined ? {} : { exchange: file.exchange }),
});

/** The validators of a file whose bytes still match its row; none (a plain request) otherwise. */
async function validatorsOf(
  file: ReferenceFile,
  ctx: Context,
): Promise<{ etag?: string; lastModified?: string }> {
  const row = ctx.rows.get(keyOf(ctx.root, file.path));
  if (!row) return {};
  const facts = await fileFacts(file.path).catch(() => undefined);
  if (!facts || facts.sha256 !== row.sha256) return {};
  return {
    ...(row.etag === undefined ? {} : { etag: row.etag }),
    ...(row.lastModified === undefined ? {} : { lastModified: row.lastModified }),
  };
}

async function keepExchanges(
  file: ReferenceFile,
  list: FetchedExchanges | 'not-modified',
  ctx: Context,
): Promise<ReferenceOutcome> {
  if (list === 'not-modified') return { ...outcomeOf(file), status: 'not-modified' };
  const bytes =
    file.format === 'xml'
      ? list.xml
      : Buffer.from(exchangesTo(file.format as ExchangesFormat, list.exchanges));
  try {
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const row = ctx.rows.get(keyOf(ctx.root, file.path));
    const onDisk = row && (await fileFacts(file.path).catch(() => undefined));
    if (row && onDisk?.sha256 === sha256) {
      ctx.ledger.put({ ...row, ...validatorFields(list.validators), fetchedAt: ctx.now().toISOString() });
      return { ...outcomeOf(file), status: 'unchanged' };
    }
    const target = await checkOutput({ output: file.path, force: true }, false, ctx.deps.names);
    await writeOutput(target, ctx.deps, async (out) => {
      await writeTo(out, bytes);
      return list.exchanges.length;
    });
    await record(file, ctx, list.exchanges.length, list.validators ?? {});
    return { ...outcomeOf(file), status: 'written' };
  } catch (error) {
    return { ...outcomeOf(file), status: 'failed', error: toMdgetError(error) };
  }
}

async function keepInstruments(
  file: ReferenceFile,
  list: FetchedExchanges | 'not-modified',
  ctx: Context,
): Promise<ReferenceOutcome> {
  try {
    const row = ctx.rows.get(keyOf(ctx.root, file.path));
    // the exchange's id: as a first sync resolved it and its row keeps it, else from the list
    const exchange: Exchange =
      row || list === 'not-modified'
        ? { id: row?.symbol ?? file.exchange ?? '', extra: {} }
        : resolveExchange(list.exchanges, file.exchange ?? '');
    const since = await validatorsOf(file, ctx);
    const download = await instrumentsIfChanged(ctx.config, exchange, ctx.deps, since);
    if (download === 'not-modified') return { ...outcomeOf(file), status: 'not-modified' };
    try {
      const options = { format: file.format as InstrumentsFormat, output: file.path, force: true };
      const target = await checkOutput(options, file.format === 'sqlite', ctx.deps.names);
      const result = await writeEntries(options, target, download.entries, ctx.deps);
      await record(file, ctx, result.written, download.validators, exchange.id);
    } finally {
      download.done();
    }
    return { ...outcomeOf(file), status: 'written' };
  } catch (error) {
    return { ...outcomeOf(file), status: 'failed', error: toMdgetError(error) };
  }
}

async function record(
  file: ReferenceFile,
  ctx: Context,
  rows: number,
  validators: { etag?: string; lastModified?: string },
  symbol?: string,
): Promise<void> {
  const facts = await fileFacts(file.path);
  ctx.ledger.put({
    path: keyOf(ctx.root, file.path),
    series: file.kind,
    symbol: symbol ?? file.exchange ?? '',
    rows,
    bytes: facts.bytes,
    sha256: facts.sha256,
    fetchedAt: ctx.now().toISOString(),
    provisional: false,
    requests: 1,
    continuations: 0,
    ...validatorFields(validators),
  });
}

const validatorFields = (v: { etag?: string; lastModified?: string } | undefined) => ({
  ...(v?.etag === undefined ? {} : { etag: v.etag }),
  ...(v?.lastModified === undefined ? {} : { lastModified: v.lastModified }),
});
