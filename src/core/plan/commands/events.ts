import type { BatchResult, RunDeps } from '../../run/run-types.js';
import {
  type DownloadCommand,
  type DownloadContext,
  type DownloadOptions,
  runDownload,
} from '../download.js';
import { planEvents } from '../requests.js';
import type { EventsParams } from '../urls.js';

/** `mdget events`: splits, dividends and earnings of a symbol list. */
export interface EventsOptions extends DownloadOptions {
  params?: EventsParams;
}

/** The events command: it needs credentials and the historical base URL. */
export const eventsCommand: DownloadCommand<EventsOptions> = {
  name: 'events',
  needs: ['credentials', 'historical'],
  series: false,
  range: (options) => options.params ?? {},
  defaultFormat: () => 'csv',
  check: () => {},
  plan: (options, ctx) => planEvents(options.symbols, options.params ?? {}, ctx),
};

/** Downloads events as `mdget events` does, with the same rules. */
export const runEvents = (
  options: EventsOptions,
  ctx: DownloadContext,
  deps: RunDeps,
): Promise<BatchResult> => runDownload(eventsCommand, options, ctx, deps);
