import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Dispatcher } from 'undici';
import { createDispatcher } from './http/agent.js';
import { RateLimiter } from './http/rate-limit.js';
import { DEFAULT_RETRY } from './http/retry.js';
import { type Config, type Requirement, requireConfig } from './model/config.js';
import { usageError } from './model/errors.js';
import type { PlannedRequest } from './plan/planned-request.js';
import {
  type MinutesVariant,
  planDateRange,
  planEod,
  planEvents,
  planFuturesOptions,
  planMinutes,
  planTicks,
} from './plan/requests.js';
import type { EodParams, EventsParams, ExtraParams, MinutesParams, TicksParams } from './plan/urls.js';
import { type Exchange, findExchanges } from './reference/exchanges.js';
import {
  fetchExchanges,
  type InstrumentsOptions,
  type InstrumentsResult,
  runInstruments,
} from './reference/instruments-command.js';
import { runBatch } from './run/run-job.js';
import type { BatchOptions, BatchResult, RunDeps } from './run/run-types.js';

/** How a client sends its requests; every field has a default. */
export interface ClientOptions {
  /** An undici dispatcher to share (default: one Agent of the client's own, closed by close()). */
  dispatcher?: Dispatcher;
  retries?: number;
  timeoutMs?: number;
  /** Most requests per second across everything the client runs (--rate). */
  rate?: number;
  /** The server's cap on rows per response, if known (--max-rows). */
  maxRows?: number;
  /** Listeners, as the CLI uses them: progress, notes, retries. */
  listeners?: Pick<RunDeps, 'onProgress' | 'onPlan' | 'onNote' | 'onRequest' | 'onRetry'>;
  /** The instant "today" is taken from (default: now). */
  now?: () => Date;
}

/** What a download writes and how (the CLI's output options). */
export type DownloadOptions = Partial<Omit<BatchOptions, 'output'>> & { signal?: AbortSignal };

/** One query: its records as they stream, or a download that writes them like the CLI. */
export interface Query<R> extends AsyncIterable<R> {
  /** The requests it will send (credentials in the URLs: redact before showing them). */
  plan(): PlannedRequest[];
  /** The records, streamed with backpressure; an abort of `signal` stops the download. */
  records(signal?: AbortSignal): AsyncIterable<R>;
  /** Writes to a file or a template (`data/{symbol}-{date}.csv`): atomic, checked, completed; or to a stream. */
  download(to: string | NodeJS.WritableStream, options?: DownloadOptions): Promise<BatchResult>;
}

/** A record: the csv's columns as keys (README "Records"), numbers as numbers, empty fields null. */
export type MarketRecord = Record<string, string | number | null>;

/** Common query fields: one or more symbols, and parameters passed through unchanged. */
interface Symbols {
  symbols: string | readonly string[];
  extra?: ExtraParams;
}

/** The client: one method per command of the CLI, over one dispatcher. */
export interface Client {
  ticks(query: Symbols & TicksParams): Query<MarketRecord>;
  minutes(query: Symbols & MinutesParams & { variant?: MinutesVariant }): Query<MarketRecord>;
  eod(query: Symbols & EodParams): Query<MarketRecord>;
  events(query: Symbols & EventsParams): Query<MarketRecord>;
  dateRange(query: Symbols & { database: 'minutes' | 'eod' }): Query<MarketRecord>;
  futuresOptions(query: Symbols & { date?: Date; json?: boolean }): Query<MarketRecord>;
  /** The exchanges list, typed; `find` keeps those whose id or description contains it. */
  exchanges(query?: { find?: string; signal?: AbortSignal }): Promise<Exchange[]>;
  /** One exchange's instrument profile tables, written as the CLI writes them (ndjson, csv, json, sqlite). */
  instruments(
    query: { exchange: string; to: string | NodeJS.WritableStream } & Partial<
      Omit<InstrumentsOptions, 'exchange' | 'output'>
    > & { signal?: AbortSignal },
  ): Promise<InstrumentsResult>;
  /** Closes the client's own dispatcher (not one passed in). */
  close(): Promise<void>;
}

/**
 * A client of the service for `config` (resolved by the caller: the library reads no environment). Every
 * method plans like the CLI and shares its pipeline: windows completed when a server cut them, checks,
 * atomic files. Errors are MdgetError with a `code`, and `status` and a redacted `url` where a request failed.
 */
export function createClient(config: Config, options: ClientOptions = {}): Client {
  const own = options.dispatcher ? undefined : createDispatcher({ timeoutMs: options.timeoutMs ?? 60_000 });
  const dispatcher = options.dispatcher ?? (own as Dispatcher);
  const limiter = new RateLimiter(options.rate);
  const now = options.now ?? (() => new Date());
  const list = (symbols: string | readonly string[]) =>
    typeof symbols === 'string' ? [symbols] : [...symbols];

  const query = (needs: Requirement[], plan: () => PlannedRequest[]): Query<MarketRecord> => {
    const deps = (signal: AbortSignal | undefined, stdout: NodeJS.WritableStream): RunDeps => ({
      dispatcher,
      retry: { ...DEFAULT_RETRY, retries: options.retries ?? DEFAULT_RETRY.retries },
      limiter,
      stdout,
      secrets: [config.password],
      ...options.listeners,
      ...(signal ? { signal } : {}),
    });
    const planned = () => {
      requireConfig(config, needs);
      return plan();
    };
    const download = async (to: string | NodeJS.WritableStream, download: DownloadOptions = {}) => {
      const { signal, ...rest } = download;
      // the library prints nothing of its own: standard output is a stream the caller hands in
      if (to === '-') throw usageError("download('-'): pass a writable stream, such as process.stdout");
      const result = await runBatch(
        planned(),
        {
          output: typeof to === 'string' ? to : '-',
          format: 'csv',
          header: true,
          force: false,
          skipExisting: false,
          concurrency: 4,
          ...(options.maxRows === undefined ? {} : { maxRows: options.maxRows }),
          ...rest,
        },
        deps(signal, typeof to === 'string' ? new PassThrough() : to),
      );
      if (result.failure) throw result.failure;
      return result;
    };
    const records = (signal?: AbortSignal) =>
      streamRecords(planned, (plans, out) =>
        runBatch(
          plans,
          {
            output: '-',
            format: 'ndjson',
            header: true,
            force: true,
            skipExisting: false,
            concurrency: 4,
            ...(options.maxRows === undefined ? {} : { maxRows: options.maxRows }),
          },
          deps(signal, out),
        ),
      );
    return {
      plan: planned,
      records,
      download,
      [Symbol.asyncIterator]: () => records()[Symbol.asyncIterator](),
    };
  };
  const ctx = (extra?: ExtraParams) => ({
    config,
    now: now(),
    ...(extra ? { extra } : {}),
    ...(options.maxRows === undefined ? {} : { maxRows: options.maxRows }),
  });
  const historical: Requirement[] = ['credentials', 'historical'];

  return {
    ticks: ({ symbols, extra, ...params }) =>
      query(historical, () => planTicks(list(symbols), params, ctx(extra))),
    minutes: ({ symbols, extra, variant, ...params }) =>
      query(historical, () => planMinutes(list(symbols), params, variant ?? 'minutes', ctx(extra))),
    eod: ({ symbols, extra, ...params }) => {
      if (params.nearest && params.continue) throw usageError('nearest and continue exclude each other');
      return query(historical, () => planEod(list(symbols), params, ctx(extra)));
    },
    events: ({ symbols, extra, ...params }) =>
      query(historical, () => planEvents(list(symbols), params, ctx(extra))),
    dateRange: ({ symbols, extra, database }) =>
      query(historical, () => planDateRange(database, list(symbols), ctx(extra))),
    futuresOptions: ({ symbols, extra, date, json }) =>
      query(['credentials', 'futuresOptions'], () =>
        planFuturesOptions(list(symbols), date ? { date } : {}, json ?? false, ctx(extra)),
      ),
    exchanges: async ({ find, signal } = {}) => {
      const { exchanges } = await fetchExchanges(config, {
        dispatcher,
        retry: { ...DEFAULT_RETRY, retries: options.retries ?? DEFAULT_RETRY.retries },
        limiter,
        ...(signal ? { signal } : {}),
      });
      return find === undefined ? exchanges : findExchanges(exchanges, find);
    },
    instruments: ({ exchange, to, signal, ...rest }) =>
      // a path is written as the CLI writes -o; a stream is where the CLI would write stdout
      runInstruments(
        { exchange, output: typeof to === 'string' ? to : '-', format: 'ndjson', force: false, ...rest },
        config,
        {
          dispatcher,
          retry: { ...DEFAULT_RETRY, retries: options.retries ?? DEFAULT_RETRY.retries },
          limiter,
          stdout: typeof to === 'string' ? new PassThrough() : to,
          secrets: [config.password],
          ...options.listeners,
          ...(signal ? { signal } : {}),
        },
      ),
    close: async () => {
      await own?.close();
    },
  };
}

/**
 * The records of a batch written as ndjson into a stream the reader pulls: the batch waits whenever the
 * reader does (backpressure), and a reader that stops early aborts the rest.
 */
async function* streamRecords(
  plan: () => PlannedRequest[],
  run: (plans: PlannedRequest[], out: PassThrough) => Promise<BatchResult>,
): AsyncGenerator<MarketRecord> {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const done = run(plan(), out).then(
    (result) => {
      out.end();
      return result;
    },
    (error: unknown) => {
      out.destroy(error as Error);
      throw error;
    },
  );
  done.catch(() => {});
  let carry = '';
  try {
    for await (const chunk of out) {
      const lines = (carry + String(chunk)).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) if (line) yield JSON.parse(line) as MarketRecord;
    }
    const result = await done;
    if (result.failure) throw result.failure;
  } finally {
    if (!out.writableFinished) {
      out.destroy();
      await once(out, 'close').catch(() => {});
    }
  }
}
