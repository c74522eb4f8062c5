import type { MetricFamily } from '../sink/metrics-text.js';
import type { DatasetStatus } from './status.js';

/**
 * The per-series gauges of a dataset, from its status (its ledgers; no request): files by state, and the
 * newest complete day as 00:00 UTC of its date (0 when none is complete), which an alert compares with now.
 */
export function seriesFamilies(
  status: DatasetStatus,
  labels: Readonly<Record<string, string>>,
): MetricFamily[] {
  const states = ['complete', 'provisional', 'missing'] as const;
  return [
    {
      name: 'mdget_series_files',
      help: 'Files of a dataset series by state, from its ledgers.',
      type: 'gauge',
      samples: status.series.flatMap((s) =>
        states.map((state) => ({ labels: { ...labels, series: s.name, state }, value: s[state] })),
      ),
    },
    {
      name: 'mdget_series_newest_complete_timestamp_seconds',
      help: 'The newest complete day of a series, as 00:00 UTC of its date (0: none).',
      type: 'gauge',
      samples: status.series.map((s) => ({
        labels: { ...labels, series: s.name },
        value: s.newestComplete ? Date.parse(`${s.newestComplete}T00:00:00Z`) / 1000 : 0,
      })),
    },
  ];
}
