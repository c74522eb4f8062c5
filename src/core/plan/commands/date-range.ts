import type { BatchResult, RunDeps } from '../../run/run-types.js';
import {
  type DownloadCommand,
  type DownloadContext,
  type DownloadOptions,
  runDownload,
} from '../download.js';
import { planDateRange } from '../requests.js';

/** `mdget daterange`: the available date range of each symbol in the minute or EOD database. */
export interface DateRangeOptions extends DownloadOptions {
  database: 'minutes' | 'eod';
}

/** The daterange command: it needs credentials and the historical base URL. */
export const dateRangeCommand: DownloadCommand<DateRangeOptions> = {
  name: 'daterange',
  needs: ['credentials', 'historical'],
  series: false,
  range: () => ({}),
  defaultFormat: () => 'csv',
  check: () => {},
  plan: (options, ctx) => planDateRange(options.database, options.symbols, ctx),
};

/** Downloads date ranges as `mdget daterange` does, with the same rules. */
export const runDateRange = (
  options: DateRangeOptions,
  ctx: DownloadContext,
  deps: RunDeps,
): Promise<BatchResult> => runDownload(dateRangeCommand, options, ctx, deps);
