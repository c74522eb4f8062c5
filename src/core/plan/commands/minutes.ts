import { usageError } from '../../model/errors.js';
import type { minutesParams, SelectorsOf } from '../../model/params.js';
import type { BatchResult, RunDeps } from '../../run/run-types.js';
import {
  type DownloadCommand,
  type DownloadContext,
  type DownloadOptions,
  runDownload,
  seriesRange,
} from '../download.js';
import { type MinutesVariant, planMinutes } from '../requests.js';
import type { MinutesParams } from '../urls.js';

/** `mdget minutes`: minute bars; `nearby` and `formT` pick the endpoint (at most one of them). */
export interface MinutesOptions extends DownloadOptions, SelectorsOf<typeof minutesParams> {
  params?: MinutesParams;
}

/** The endpoint variant the options select; MDGET_USAGE when they select two. */
export function minutesVariantOf(options: MinutesOptions): MinutesVariant {
  if (options.nearby && options.formT) throw usageError('--nearby and --form-t exclude each other');
  return options.nearby ? 'nearby' : options.formT ? 'form-t' : 'minutes';
}

/** The minutes command: it needs credentials and the historical base URL. */
export const minutesCommand: DownloadCommand<MinutesOptions> = {
  name: 'minutes',
  needs: ['credentials', 'historical'],
  series: true,
  range: (options) => options.params ?? {},
  defaultFormat: () => 'csv',
  check: (options) => void minutesVariantOf(options),
  plan: (options, ctx) =>
    planMinutes(
      options.symbols,
      seriesRange(options.params ?? {}, options, ctx.now),
      minutesVariantOf(options),
      ctx,
    ),
};

/** Downloads minute bars as `mdget minutes` does, with the same rules. */
export const runMinutes = (
  options: MinutesOptions,
  ctx: DownloadContext,
  deps: RunDeps,
): Promise<BatchResult> => runDownload(minutesCommand, options, ctx, deps);
