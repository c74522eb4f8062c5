// `mdget sync` against what it replaces: a first sync of 20 symbols x 86 days of ticks (1,720 files) at
// --concurrency 8 with 50 ms latency, against one `mdget ticks` of the same plan with a template; then a
// sync with nothing to fetch, against `node -e 0`. Paired and interleaved, BENCH_RUNS times; medians.
// BENCH_QUICK=1: 4 symbols. Run after `npm run build`: node bench/sync.js
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';
import { median, q, timer } from './timing.js';

const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ALL = ['AAPL', 'MSFT', 'QQQ', 'TSLA', 'IBM', 'SPY', 'BRK.B', 'ESM25', 'NQM25', '6EM25'];
const MORE = ['ZCK25', 'CLK25', 'GCJ25', 'ESH25', 'NQH25', '^EURUSD', '^USDJPY', '^BTCUSD', 'ESU25', 'NQU25'];
const SYMBOLS = process.env.BENCH_QUICK === '1' ? ALL.slice(0, 4) : [...ALL, ...MORE];
const [START, END] = ['2025-01-02', '2025-03-29'];

const dir = mkdtempSync(join(tmpdir(), 'mdget-bench-sync-'));
const timed = timer(dir);
const emu = await startEmulator({ latency: 50 });
const env = { ...emu.env, MDGET_NOW: '2025-04-01T00:00:00Z' };
writeFileSync(
  join(dir, 'mdget.toml'),
  `root = "data"\n\n[[series]]\nname = "ticks"\nkind = "ticks"\nsymbols = ${JSON.stringify(SYMBOLS)}\n` +
    `start = "${START}"\nend = "${END}"\npath = "ticks/{symbol}/{date}.csv.gz"\n`,
);
const sync = `sh -c ${q(`cd ${q(dir)} && rm -rf data && exec ${q(BIN)} sync --concurrency 8 -q`)}`;
const plain = `sh -c ${q(
  `cd ${q(dir)} && rm -rf t && exec ${q(BIN)} ticks ${SYMBOLS.map(q).join(' ')} --start ${START} --end ${END} ` +
    `-o 't/{symbol}/{date}.csv.gz' --concurrency 8 -q`,
)}`;
const noop = `sh -c ${q(`cd ${q(dir)} && exec ${q(BIN)} sync -q`)}`;

const rows = { plain: [], sync: [], empty: [], noop: [] };
try {
  for (let run = 0; run < RUNS; run++) {
    rows.plain.push(await timed(plain, env));
    rows.sync.push(await timed(sync, env));
    rows.empty.push(await timed(`node -e 0`, env));
    rows.noop.push(await timed(noop, env));
  }
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
const line = (label, xs, base) => {
  const s = median(xs.map((x) => x.seconds));
  const ratio = base ? `${(s / median(base.map((x) => x.seconds))).toFixed(2)}x the time` : 'baseline';
  const cpu = median(xs.map((x) => x.cpu)).toFixed(2);
  const rss = median(xs.map((x) => x.rssMiB)).toFixed(0);
  console.log(
    `  ${label.padEnd(46)} ${s.toFixed(2).padStart(7)} s  ${cpu.padStart(6)} cpu-s  ${ratio.padEnd(16)} peak ${rss} MiB`,
  );
};
console.log(`sync: ${SYMBOLS.length} symbols x ${START}..${END} of ticks, ${RUNS} runs, medians`);
line('mdget ticks, the same plan, a template', rows.plain);
line('mdget sync, first', rows.sync, rows.plain);
line('node -e 0', rows.empty);
line('mdget sync, nothing to fetch', rows.noop, rows.empty);
