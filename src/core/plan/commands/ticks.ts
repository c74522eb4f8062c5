import type { BatchResult, RunDeps } from '../../run/run-types.js';
import {
  type DownloadCommand,
  type DownloadContext,
  type DownloadOptions,
  runDownload,
  seriesRange,
} from '../download.js';
import { planTicks } from '../requests.js';
import type { TicksParams } from '../urls.js';

/** `mdget ticks`: trades of each symbol, one request per calendar day (or --window). */
export interface TicksOptions extends DownloadOptions {
  params?: TicksParams;
}

/** The ticks command: it needs credentials and the historical base URL. */
export const ticksCommand: DownloadCommand<TicksOptions> = {
  name: 'ticks',
  needs: ['credentials', 'historical'],
  series: true,
  range: (options) => options.params ?? {},
  defaultFormat: () => 'csv',
  check: () => {},
  plan: (options, ctx) =>
    planTicks(options.symbols, seriesRange(options.params ?? {}, options, ctx.now), ctx),
};

/** Downloads ticks as `mdget ticks` does, with the same rules. */
export const runTicks = (options: TicksOptions, ctx: DownloadContext, deps: RunDeps): Promise<BatchResult> =>
  runDownload(ticksCommand, options, ctx, deps);
