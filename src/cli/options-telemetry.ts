/** The options for unattended runs: log lines a pipeline parses, and a metrics file a monitor reads. */
import { LOG_FORMATS } from './log.js';

export const TELEMETRY_OPTIONS = {
  'log-format': {
    value: 'text|json',
    choices: LOG_FORMATS,
    group: 'messages',
    env: 'MDGET_LOG_FORMAT',
    help: 'json: every line on stderr is one JSON object (time, level, msg, and code, exit, url, symbol, series, file, rows, bytes where they apply); no progress bars, no colour',
    defaultText: 'text',
  },
  'metrics-file': {
    value: 'path',
    group: 'monitoring',
    env: 'MDGET_METRICS_FILE',
    help: "at the end of the run, success or failure, write its metrics there in Prometheus' text format, atomically (node_exporter's textfile collector)",
  },
  'metrics-job': {
    value: 'name',
    group: 'monitoring',
    help: 'the `mdget_job` label of the metrics, so several jobs can share a collector directory',
    defaultText: "the dataset file for sync, else the metrics file's name",
  },
  'status-metrics': {
    flag: 'metrics',
    group: 'dataset',
    help: "the per-series gauges on stdout in Prometheus' text format instead of the table",
  },
} as const;
