import { COMMAND_PARAMS, type ParamSpec } from '../core/params.js';
import { PAGES } from '../core/request-builders.js';

type Command = keyof typeof COMMAND_PARAMS;

const ABOUT: Record<Command, { endpoint: string; text: string; examples: string[] }> = {
  ticks: {
    endpoint: `\`${PAGES.ticks}\``,
    text: 'Trades, one request per symbol and calendar day (the service serves one day per request).',
    examples: [
      'mdget ticks ESM25 --start 2025-03-10 --end 2025-03-15 -o "ticks/{symbol}-{date}.csv"',
      'mdget ticks AAPL --start 2025-03-14T09:30 --end 2025-03-14T10:00 --session-filter +T --format ndjson',
    ],
  },
  minutes: {
    endpoint: `\`${PAGES.minutes}\`; \`--nearby\` \`${PAGES.nearbyMinutes}\`; \`--form-t\` \`${PAGES.formTMinutes}\``,
    text: 'Minute bars. `ROOT*n` symbols (n-th nearest contract) and `--nearby` add a leading `contract` column.',
    examples: [
      'mdget minutes AAPL --start 2025-03-14 --end 2025-03-15 --interval 5',
      'mdget minutes ES --nearby --start 2025-03-17 --end 2025-03-22 -o es-continuous.csv',
      'mdget minutes AAPL --form-t --start 2025-03-14',
    ],
  },
  eod: {
    endpoint: `\`${PAGES.eod}\``,
    text: 'Daily and longer bars: 7 columns for equities, 8 (with open interest) for futures.',
    examples: [
      'mdget eod AAPL MSFT --start 2024-01-01 --end 2025-01-01',
      'mdget eod ZC*1 --period weekly --nearest --volume sum --backadjust',
    ],
  },
  events: {
    endpoint: `\`${PAGES.events}\``,
    text: 'Splits, dividends and earnings for a list of symbols in one request (split only past a safe URL length); unknown symbols are left out by the service.',
    examples: ['mdget events AAPL MSFT TSLA --splits --dividends --start 2020-01-01'],
  },
  daterange: {
    endpoint: `\`${PAGES.minuteDateRange}\` / \`${PAGES.eodDateRange}\``,
    text: 'The available date range of each symbol in the minute or EOD database: `symbol,first,last`; lines of any other shape pass through unchanged.',
    examples: ['mdget daterange eod AAPL ZCN25', 'mdget daterange minutes AAPL --format raw'],
  },
  futopts: {
    endpoint: `\`${PAGES.futuresOptions}\`; \`--json\` \`${PAGES.futuresOptionsJson}\` (futures-options base URL)`,
    text: 'Futures-options end-of-day data per root; further parameters through `--param`. JSON is streamed through unchanged.',
    examples: ['mdget futopts ZC --date 2025-03-13', 'mdget futopts ZC CL --json -o "fo-{symbol}.json"'],
  },
};

function flagCell(spec: ParamSpec): string {
  if (spec.kind === 'flag') return `\`--${spec.flag}\``;
  const value = spec.choices
    ? spec.choices.join('\\|')
    : (spec.metavar ?? (spec.kind === 'int' ? 'n' : spec.kind));
  return `\`--${spec.flag} <${value}>\``;
}

function queryCell(spec: ParamSpec): string {
  if (spec.query === '') return '(selects the endpoint)';
  if (spec.query === 'data')
    return spec.flag === 'period' ? '`data=<period>`' : `\`data=<period>${spec.flag}\``;
  if (spec.kind === 'flag') return `\`${spec.query}=${spec.sent ?? 'true'}\``;
  if (spec.kind === 'date') return `\`${spec.query}=yyyymmdd[hhmmss]\``;
  return `\`${spec.query}=<value>\``;
}

/** The README's per-command sections: endpoint, examples and the flag → query parameter table (pure). */
export function renderCommandTables(): string {
  const out: string[] = [];
  for (const command of Object.keys(COMMAND_PARAMS) as Command[]) {
    const about = ABOUT[command];
    const args =
      command === 'daterange'
        ? 'minutes|eod <symbol...>'
        : command === 'futopts'
          ? '<root...>'
          : '<symbol...>';
    out.push(`### \`mdget ${command} ${args}\``, '', `${about.text} Endpoint: ${about.endpoint}.`, '');
    out.push('```sh', ...about.examples, '```', '');
    const specs: readonly ParamSpec[] = COMMAND_PARAMS[command];
    out.push('| Flag | Query parameter | Meaning |', '|---|---|---|');
    out.push(
      `| positional | \`${command === 'futopts' ? 'root' : command === 'events' || command === 'daterange' ? 'symbols' : 'symbol'}\` | ${command === 'events' || command === 'daterange' ? 'comma list, split past 2,000 bytes of query' : 'one request per symbol'} |`,
    );
    for (const spec of specs) out.push(`| ${flagCell(spec)} | ${queryCell(spec)} | ${spec.help} |`);
    out.push(
      '| `--param <key=value>` | `key=value` | any other parameter, passed through unchanged (repeatable) |',
      '',
    );
  }
  return out.join('\n');
}

/** Replaces the text between the README's command markers. */
export function withCommandTables(readme: string): string {
  const start = '<!-- commands:start -->';
  const end = '<!-- commands:end -->';
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error('README lacks the command markers');
  return `${readme.slice(0, from + start.length)}\n${renderCommandTables()}\n${readme.slice(to)}`;
}
