import { type Config, requireConfig } from '../model/config.js';
import { writeTo } from '../sink/atomic-file.js';
import { findExchanges, resolveExchange } from './exchanges.js';
import { exchangesTo } from './exchanges-format.js';
import { downloadInstruments, exchangeLabel, fetchExchanges } from './fetch.js';
import {
  checkExchangesOptions,
  checkTablesOptions,
  type ExchangesOptions,
  type InstrumentsOptions,
  type InstrumentsResult,
  type ReferenceResult,
  type ReferenceRunDeps,
} from './options.js';
import { checkOutput, outputOf, writeEntries, writeOutput } from './output.js';

export type { Exchange } from './exchanges.js';
export type { ExchangesFormat } from './exchanges-format.js';
export { fetchExchanges } from './fetch.js';
export { runCapture } from './from-capture.js';
export type { InstrumentEntry } from './instrument-stream.js';
export * from './options.js';
export type { ProfileTable } from './profile-tables.js';
export type { SqliteCounts } from './sqlite-writer.js';
export type { TableStreamFormat } from './table-writers.js';

/** `mdget exchanges`: the list, filtered by `find`, written as `format` to `output`; returns the count. */
export async function runExchanges(
  options: ExchangesOptions,
  config: Config,
  deps: ReferenceRunDeps,
): Promise<ReferenceResult> {
  checkExchangesOptions(options, deps.names);
  requireConfig(config, ['extras']);
  const target = await checkOutput(options, false, deps.names);
  const { exchanges, xml } = await fetchExchanges(config, deps);
  if (options.format === 'xml') {
    const result = await writeOutput(target, deps, async (out) => {
      await writeTo(out, xml);
      return exchanges.length;
    });
    return { ...result, ...outputOf(options) };
  }
  const list = options.find === undefined ? exchanges : findExchanges(exchanges, options.find);
  if (list.length === 0) {
    deps.onNote?.(
      options.find === undefined
        ? 'the exchanges list holds no exchange'
        : `no exchange matches "${options.find}" by id or description`,
    );
  }
  const format = options.format;
  const result = await writeOutput(target, deps, async (out) => {
    await writeTo(out, exchangesTo(format, list));
    return list.length;
  });
  return { ...result, ...outputOf(options) };
}

/**
 * `mdget instruments <exchange>`: resolves the exchange through the list (a unique id or description, else
 * MDGET_USAGE naming the candidates), then streams `<id>-instruments.json` into the profile tables. The
 * output is checked before any request; a file appears only complete.
 */
export async function runInstruments(
  options: InstrumentsOptions,
  config: Config,
  deps: ReferenceRunDeps,
): Promise<InstrumentsResult> {
  checkTablesOptions(options, deps.names);
  requireConfig(config, ['extras', 'instruments']);
  const target = await checkOutput(options, options.format === 'sqlite', deps.names);
  const { exchanges } = await fetchExchanges(config, deps);
  const exchange = resolveExchange(exchanges, options.exchange);
  const download = await downloadInstruments(config, exchange, deps);
  try {
    const result = await writeEntries(options, target, download.entries, deps);
    if (result.written === 0 && !result.stdoutClosed)
      deps.onNote?.(`no instruments for ${exchangeLabel(exchange)}`);
    return { ...result, exchange };
  } finally {
    download.done();
  }
}
