import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Dispatcher } from 'undici';
import { type DatasetMethods, datasetMethods } from './dataset/dataset-client.js';
import { type ProxySettings, proxySecrets, proxySettingsOf } from './http/proxy-route.js';
import { type OpenTransport, openTransport } from './http/transport.js';
import { type Config, clientConfig } from './model/config.js';
import { CONFIG_DEFAULTS } from './model/defaults.js';
import { interruptedError, usageError } from './model/errors.js';
import { nearestName } from './model/near-names.js';
import { CLIENT_KEYS, queryKeys, SETTINGS_KEYS } from './model/option-schema.js';
import type { DownloadName, DownloadOptions, OutputOptions, Queries, RunOptions } from './model/options.js';
import type { RecordFor } from './model/records.js';
import type { Job } from './plan/job.js';
import { optionNames } from './plan/names.js';
import type { PlannedRequest } from './plan/planned-request.js';
import { resolve } from './plan/resolve.js';
import { checkBounds } from './plan/rules.js';
import { type TransportSettings, transportSettingsOf } from './plan/transport-settings.js';
import { type Exchange, findExchanges } from './reference/exchanges.js';
import {
  fetchExchanges,
  type InstrumentsOptions,
  type InstrumentsResult,
  runInstruments,
} from './reference/instruments-command.js';
import { runJob } from './run/run-job.js';
import { type MetricsSettings, withRunMetrics } from './run/run-metrics.js';
import { runTotals } from './run/run-totals.js';
import type { BatchResult, JobDeps, RunDeps } from './run/run-types.js';
import { sidecarMemory } from './sink/file-memory.js';

/** How a client sends its requests; every field has a default. */
export interface ClientOptions {
  /** An undici dispatcher to share (default: one Agent of the client's own, closed by close()). */
  dispatcher?: Dispatcher;
  /** Tries after the first, on network errors, 429 and 5xx (default 3); a download's own setting wins. */
  retries?: number;
  /** Wait for headers, or for the next bytes of a body (default 60000); for the client's own dispatcher. */
  timeoutMs?: number;
  /** Most requests per second across everything the client runs with this rate. */
  rate?: number;
  /** The server's cap on rows per response, if known. */
  maxRows?: number;
  /** Listeners, as the CLI uses them: progress, notes, retries. */
  listeners?: Pick<RunDeps, 'onProgress' | 'onPlan' | 'onNote' | 'onRequest' | 'onRetry'>;
  /** The instant "today" is taken from (default: now). */
  now?: () => Date;
  /**
   * Proxies for the client's own dispatcher: one URL for every request, or one per scheme with the hosts
   * that go direct (docs/library.md#proxies-and-tls). The environment is never read.
   */
  proxy?: string | ProxySettings;
  /** PEM certificates of a private CA, trusted besides Node's own, for the client's own dispatcher. */
  ca?: string | readonly string[];
}

/** How download() writes, besides where: the output and run options of the CLI, and a signal to cancel. */
export type DownloadSettings = Omit<OutputOptions, 'output'> &
  RunOptions & {
    signal?: AbortSignal;
    /** A metrics file written at the end, success or failure (docs/library.md#metrics). */
    metrics?: MetricsSettings;
  };

/** What a query method takes: the command's query, and the columns its records are cut to. */
export type QueryOf<N extends DownloadName> = Queries[N] & { columns?: readonly string[] };

/** `Q` where a key `T` does not have is never: a misspelt option does not compile. */
type Known<Q, T> = Q & Record<Exclude<keyof Q, keyof T>, never>;

/** One query: its records as they stream, or a download that writes them like the CLI. */
export interface Query<R> extends AsyncIterable<R> {
  /** The requests it will send, without URLs or credentials (signed when sent); throws MDGET_USAGE. */
  plan(): PlannedRequest[];
  /** The records, streamed with backpressure; an abort of `signal` stops the download. */
  records(signal?: AbortSignal): AsyncIterable<R>;
  /** Writes to a file or a template (`data/{symbol}-{date}.csv`): atomic, checked, completed; or to a stream. */
  download(to: string | NodeJS.WritableStream, settings?: DownloadSettings): Promise<BatchResult>;
}

/** The client: one method per command of the CLI, over one dispatcher. */
export interface Client extends DatasetMethods {
  ticks<const Q extends QueryOf<'ticks'>>(query: Known<Q, QueryOf<'ticks'>>): Query<RecordFor<'ticks', Q>>;
  minutes<const Q extends QueryOf<'minutes'>>(
    query: Known<Q, QueryOf<'minutes'>>,
  ): Query<RecordFor<'minutes', Q>>;
  eod<const Q extends QueryOf<'eod'>>(query: Known<Q, QueryOf<'eod'>>): Query<RecordFor<'eod', Q>>;
  events<const Q extends QueryOf<'events'>>(
    query: Known<Q, QueryOf<'events'>>,
  ): Query<RecordFor<'events', Q>>;
  dateRange<const Q extends QueryOf<'daterange'>>(
    query: Known<Q, QueryOf<'daterange'>>,
  ): Query<RecordFor<'daterange', Q>>;
  futuresOptions<const Q extends QueryOf<'futopts'>>(
    query: Known<Q, QueryOf<'futopts'>>,
  ): Query<RecordFor<'futopts', Q>>;
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
 * method goes through the CLI's own resolve and run: the same rules, defaults, windows completed when a
 * server cut them, checks and atomic files. Errors are MdgetError with a `code` (MDGET_USAGE naming the
 * option for a bad value, before any request), and `status` and a redacted `url` where a request failed.
 */
export function createClient(given: Config, options: ClientOptions = {}): Client {
  checkKeys(options, CLIENT_KEYS, 'createClient');
  checkClientOptions(options);
  // the CLI's defaults under what the caller gives; messages name the client's config keys
  const config = clientConfig({
    ...given,
    exchangesPath: given.exchangesPath ?? CONFIG_DEFAULTS.exchangesPath,
  });
  const proxy = options.proxy === undefined ? undefined : proxySettingsOf(options.proxy);
  const ca = options.ca === undefined ? [] : [options.ca].flat();
  // the client's options are the defaults of every run's settings, which resolve completes
  const defaults = {
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.rate === undefined ? {} : { rate: options.rate }),
    ...(options.maxRows === undefined ? {} : { maxRows: options.maxRows }),
  };
  // one transport per distinct settings, built from them as the CLI builds its own, closed by close()
  const transports = new Map<string, OpenTransport>();
  const transportOf = (settings: TransportSettings): OpenTransport => {
    const key = JSON.stringify(settings);
    let transport = transports.get(key);
    if (!transport) {
      transport = openTransport(settings, {
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        ...(proxy ? { proxy } : {}),
        ...(ca.length ? { ca } : {}),
      });
      transports.set(key, transport);
    }
    return transport;
  };
  const now = options.now ?? (() => new Date());
  const deps = (
    signal: AbortSignal | undefined,
    stdout: NodeJS.WritableStream,
    settings: TransportSettings = transportSettingsOf(defaults),
  ): JobDeps => {
    const { dispatcher, retry, limiter } = transportOf(settings);
    return {
      dispatcher,
      retry,
      limiter,
      stdout,
      config,
      secrets: [config.password, ...(proxy ? proxySecrets(proxy) : [])],
      ...options.listeners,
      ...(signal ? { signal } : {}),
    };
  };
  const resolved = <N extends DownloadName>(name: N, query: DownloadOptions<N>) =>
    resolve(
      name,
      { ...defaults, ...query },
      {
        config,
        now: now(),
        names: optionNames,
      },
    );
  // the job's warnings (a shard sharing an output) reach the caller as the CLI's reach stderr
  const warned = (job: Job): Job => {
    for (const warning of job.warnings) options.listeners?.onNote?.(`warning: ${warning}`);
    return job;
  };

  // The record type R is the one the client's method declares for its query (model/records.ts).
  const queryOf = <N extends DownloadName, R>(name: N, query: QueryOf<N>): Query<R> => {
    // every way in checks the query's keys first, where the rules check its values
    const jobOf = (more: object): Job => {
      checkKeys(query, queryKeys(name), `a ${name} query`);
      return warned(resolved(name, { ...query, ...more } as DownloadOptions<N>));
    };
    const download = async (to: string | NodeJS.WritableStream, settings: DownloadSettings = {}) => {
      checkKeys(settings, SETTINGS_KEYS, 'download()');
      const { signal, metrics, ...rest } = settings;
      // the library prints nothing of its own: standard output is a stream the caller hands in
      if (to === '-') throw usageError("download('-'): pass a writable stream, such as process.stdout");
      const output = typeof to === 'string' ? { output: to } : {};
      const run = { command: name, clock: now };
      return withRunMetrics(metrics, run, options.listeners?.onNote, async (track) => {
        const job = jobOf({ ...rest, ...output });
        const base = deps(signal, typeof to === 'string' ? new PassThrough() : to, job.settings.transport);
        // files remember how they were made, as the CLI's do: a later update checks it
        const result = await runJob(job, { ...base, memory: sidecarMemory });
        track.totals = runTotals(result);
        if (result.failure) throw result.failure;
        return result;
      });
    };
    const records = (signal?: AbortSignal) =>
      streamRecords<R>((out) => {
        const job = jobOf({ format: 'ndjson', header: true });
        return runJob(job, deps(signal, out, job.settings.transport));
      }, signal);
    return {
      plan: () => jobOf({}).requests,
      records,
      download,
      [Symbol.asyncIterator]: () => records()[Symbol.asyncIterator](),
    };
  };

  return {
    ticks: (query) => queryOf('ticks', query),
    minutes: (query) => queryOf('minutes', query),
    eod: (query) => queryOf('eod', query),
    events: (query) => queryOf('events', query),
    dateRange: (query) => queryOf('daterange', query),
    futuresOptions: (query) => queryOf('futopts', query),
    exchanges: async ({ find, signal } = {}) => {
      const { dispatcher, retry, limiter } = deps(signal, new PassThrough());
      const { exchanges } = await fetchExchanges(config, {
        dispatcher,
        retry,
        limiter,
        ...(signal ? { signal } : {}),
      });
      return find === undefined ? exchanges : findExchanges(exchanges, find);
    },
    instruments: async ({ exchange, to, signal, ...rest }) =>
      // a path is written as the CLI writes -o; a stream is where the CLI would write stdout
      runInstruments(
        {
          exchange,
          ...(typeof to === 'string' ? { output: to } : {}),
          format: 'ndjson',
          force: false,
          ...rest,
        },
        config,
        deps(signal, typeof to === 'string' ? new PassThrough() : to),
      ),
    ...datasetMethods(
      config,
      now,
      (signal, sync) => deps(signal, new PassThrough(), transportSettingsOf({ ...defaults, ...sync })),
      options.listeners?.onNote,
    ),
    close: async () => {
      const open = [...transports.values()];
      transports.clear();
      await Promise.all(open.map((transport) => transport.close()));
    },
  };
}

/**
 * An unknown key is MDGET_USAGE, as an unknown flag is on the command line: a typo (`intervall`,
 * `concurency`) would otherwise be dropped without a word. The keys come from the option table.
 */
function checkKeys(given: object | undefined, known: readonly string[], where: string): void {
  if (given === undefined || given === null || typeof given !== 'object') return;
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue;
    const near = nearestName(key, known);
    throw usageError(
      `${key}: not an option of ${where}${near === undefined ? `; it takes ${known.join(', ')}` : ` (did you mean ${near}?)`}`,
    );
  }
}

/** The client's own options, checked as the CLI checks its flags (MDGET_USAGE naming the option). */
function checkClientOptions(options: ClientOptions): void {
  const { timeoutMs, rate } = options;
  if (options.dispatcher && (options.proxy !== undefined || options.ca !== undefined))
    throw usageError("proxy and ca set up the client's own dispatcher: give them to your dispatcher instead");
  // retries and maxRows: the option table's bounds, as download() checks them
  checkBounds(options, optionNames);
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0))
    throw usageError(`timeoutMs takes a positive number of milliseconds, not '${timeoutMs}'`);
  if (rate !== undefined && !(typeof rate === 'number' && rate > 0))
    throw usageError(`rate takes a positive number of requests per second, not '${rate}'`);
}

/**
 * The records of a run written as ndjson into a stream the reader pulls: the run waits whenever the reader
 * does (backpressure), and a reader that stops early aborts the rest. A bad option rejects the first read.
 */
async function* streamRecords<R>(
  run: (out: PassThrough) => Promise<BatchResult>,
  signal?: AbortSignal,
): AsyncGenerator<R> {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const done = Promise.resolve()
    .then(() => run(out))
    .then(
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
      for (const line of lines) {
        // what the stream already holds is not handed out after an abort: the records stop with the run
        if (signal?.aborted) throw interruptedError(signal.reason);
        if (line) yield JSON.parse(line) as R;
      }
    }
    const result = await done;
    if (result.failure) throw result.failure;
  } finally {
    // a reader that stopped early stops the run; a stream already closed (the run failed) is left as it is:
    // waiting for its 'close' again would wait forever
    if (!out.closed) {
      const closed = once(out, 'close').catch(() => {});
      out.destroy();
      await closed;
    }
  }
}
