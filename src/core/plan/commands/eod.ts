import { usageError } from '../../model/errors.js';
import type { BatchResult, RunDeps } from '../../run/run-types.js';
import {
  type DownloadCommand,
  type DownloadContext,
  type DownloadOptions,
  runDownload,
  seriesRange,
} from '../download.js';
import { planEod } from '../requests.js';
import type { EodParams } from '../urls.js';

/** `mdget eod`: daily and longer bars. */
export interface EodOptions extends DownloadOptions {
  params?: EodParams;
}

/** Throws MDGET_USAGE for EOD parameters the service's `data` value cannot carry together. */
export function checkEodParams(params: EodParams): void {
  // data=<period>nearest or data=<period>continue: one suffix, never both (spec §2.5).
  if (params.nearest && params.continue) throw usageError('--nearest and --continue exclude each other');
}

/** The EOD command: it needs credentials and the historical base URL. */
export const eodCommand: DownloadCommand<EodOptions> = {
  name: 'eod',
  needs: ['credentials', 'historical'],
  series: true,
  range: (options) => options.params ?? {},
  defaultFormat: () => 'csv',
  check: (options) => checkEodParams(options.params ?? {}),
  plan: (options, ctx) => planEod(options.symbols, seriesRange(options.params ?? {}, options, ctx.now), ctx),
};

/** Downloads EOD bars as `mdget eod` does, with the same rules. */
export const runEod = (options: EodOptions, ctx: DownloadContext, deps: RunDeps): Promise<BatchResult> =>
  runDownload(eodCommand, options, ctx, deps);
