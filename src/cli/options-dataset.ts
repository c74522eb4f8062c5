/** The options of the dataset commands (sync, status, verify): rows of the one option table, options.ts. */
export const DATASET_OPTIONS = {
  'sync-dry-run': {
    flag: 'dry-run',
    group: 'dataset',
    help: 'list the files that would be fetched and why (missing, provisional, changed, settings, extended, unrecorded, refresh); send nothing',
  },
  repair: {
    group: 'dataset',
    help: 'also re-hash every recorded file, not only those to extend or whose time moved, and fetch again those whose bytes changed (what verify reports)',
  },
  wait: {
    value: 'duration',
    kind: 'duration',
    group: 'dataset',
    help: 'wait this long for another sync that would write the same files to finish',
    defaultText: 'none: exit 6 at once',
  },
  'sync-shard': {
    flag: 'shard',
    value: 'i/n',
    kind: 'shard',
    group: 'dataset',
    help: "only the i-th of n deterministic shares of the dataset's files, with a ledger file of its own",
  },
  json: { group: 'dataset', help: 'one JSON object on stdout instead of the table' },
  'status-metrics': {
    flag: 'metrics',
    group: 'dataset',
    help: "the per-series gauges on stdout in Prometheus' text format instead of the table",
  },
} as const;
