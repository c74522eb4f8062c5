// node bench/time-zones.js (after npm run build): tick timestamps converted per second by
// createTimestampConverter, to UTC and to a zone, against Date.parse + toISOString on the same rows in the
// same run (a conversion that ignores zones: the floor of what a per-row parse and format costs).
// Rows: three days of a 24-hour market in Central time, one tick every 130 ms, across the 2024 fold.
// Each case runs in its own process: the pipeline uses one target per run, and a shared process would let
// one case's JIT feedback slow the next.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTimestampConverter } from '../dist/core/time/timestamp-converter.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const START = Date.parse('2024-11-02T00:00:00Z'); // the wall clock, as a WallTime

const converter = (target) =>
  createTimestampConverter({ sourceZone: 'America/Chicago', target, order: 'asc' });

const CASES = {
  baseline: ['baseline: Date.parse + toISOString', () => (text) => new Date(`${text}Z`).toISOString()],
  utc: ['ticks → utc', () => converter('utc')],
  zone: ['ticks → America/New_York', () => converter('America/New_York')],
};

/** The best of ROUNDS passes over all rows, in conversions per second. */
function measure(makeConvert) {
  const rows = Array.from({ length: ROWS }, (_, i) =>
    new Date(START + i * 130).toISOString().slice(0, 23).replace('T', ' '),
  );
  let best = 0;
  let checksum = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const convert = makeConvert();
    const started = process.hrtime.bigint();
    for (let i = 0; i < rows.length; i++) checksum += convert(rows[i]).length;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    best = Math.max(best, rows.length / seconds);
  }
  if (checksum === 0) throw new Error('nothing converted');
  return best;
}

const only = process.argv[2];
if (only) {
  console.log(measure(CASES[only][1]));
} else {
  const self = fileURLToPath(import.meta.url);
  const perSecond = (name) => Number(execFileSync(process.execPath, [self, name], { encoding: 'utf8' }));
  const results = Object.entries(CASES).map(([name, [label]]) => [label, perSecond(name)]);
  const baseline = results[0][1];
  console.log(`${ROWS.toLocaleString('en-US')} ticks, best of ${ROUNDS}, Node ${process.version}`);
  for (const [label, rate] of results) {
    const millions = (rate / 1e6).toFixed(2).padStart(6);
    console.log(`${label.padEnd(36)} ${millions} M conversions/s  ${(rate / baseline).toFixed(2)}x baseline`);
  }
}
