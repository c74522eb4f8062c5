import { usageError } from '../../model/errors.js';
import type { BatchResult, RunDeps } from '../../run/run-types.js';
import { startOfDay } from '../../time/dates.js';
import {
  type DownloadCommand,
  type DownloadContext,
  type DownloadOptions,
  runDownload,
} from '../download.js';
import { planFuturesOptions } from '../requests.js';
import { isTemplate } from '../templates.js';
import type { FuturesOptionsParams } from '../urls.js';

/** `mdget futopts`: futures-options EOD data per root (`symbols`); `json` asks for the JSON document. */
export interface FuturesOptionsOptions extends DownloadOptions {
  params?: FuturesOptionsParams;
  json?: boolean;
}

/** The futopts command: it needs credentials and the futures-options base URL. */
export const futuresOptionsCommand: DownloadCommand<FuturesOptionsOptions> = {
  name: 'futopts',
  needs: ['credentials', 'futuresOptions'],
  series: false,
  range: () => ({}),
  // The JSON document goes through unchanged: json is the format that says so (README example).
  defaultFormat: (options) => (options.json ? 'json' : 'csv'),
  check: (options) => {
    if (!options.json) return;
    const format = options.format ?? 'json';
    if (format !== 'raw' && format !== 'json') {
      throw usageError(
        `--json streams the service JSON through unchanged: use --format raw or json with it, not ${format}`,
      );
    }
    if (
      options.timeZone !== undefined ||
      options.sourceTimeZone !== undefined ||
      options.columns !== undefined
    )
      throw usageError(
        '--json streams the service JSON through unchanged: --utc, --tz, --source-tz and --columns do not apply',
      );
    if (options.symbols.length > 1 && !isTemplate(options.output ?? '-'))
      throw usageError('--json with several roots needs an output template such as -o "fo-{symbol}.json"');
  },
  plan: (options, ctx) => {
    const date = options.params?.date;
    return planFuturesOptions(
      options.symbols,
      date ? { date: startOfDay(date) } : {},
      Boolean(options.json),
      ctx,
    );
  },
};

/** Downloads futures-options data as `mdget futopts` does, with the same rules. */
export const runFuturesOptions = (
  options: FuturesOptionsOptions,
  ctx: DownloadContext,
  deps: RunDeps,
): Promise<BatchResult> => runDownload(futuresOptionsCommand, options, ctx, deps);
