// npm run bench:memory (also part of npm run bench): the memory figures. Peak RSS (GNU time) of a 1 GB ticks
// day, 26 million ticks in one response, written to a file as raw, csv and ndjson: on the default path (gzip,
// chunked) and uncompressed (Content-Length), on this machine's Node and on Node 24. The line to stay under
// is 120 MB for the gzip day. Each emulator replays its cached body, so the figures are mdget's own; each is
// the median of RUNS runs with [min-max], in MiB.
//   BENCH_QUICK=1   a day of 4 million ticks, one run, this machine's Node only
//   BENCH_RUNS=n    runs per figure (default 3)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';
import { nodeRelease } from '../scripts/node-release.js';
import { median, q, timer } from './timing.js';

const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 1 : 3));
const TICKS = QUICK ? 4_000_000 : 26_000_000;
const LINE_MIB = 120e6 / 2 ** 20;
const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mdget-bench-memory-'));
const timed = timer(dir);
const nodes = [
  [`Node ${process.versions.node}`, process.execPath],
  ...(QUICK ? [] : [['Node 24', nodeRelease(24)]]),
];

const plain = await startEmulator({ ticksPerDay: TICKS, cacheBodies: true, gzip: 'never' });
const gzip = await startEmulator({ ticksPerDay: TICKS, cacheBodies: true });
try {
  const file = join(dir, 'day');
  const url = (emu) =>
    `${emu.urls.historical}/queryticks.ashx?username=demo&password=demo&symbol=ESM25&start=20250313&end=20250314&order=asc`;
  // fills each emulator's body cache
  await timed(`curl -sf ${q(url(plain))} -o ${file}`);
  const bytes = statSync(file).size;
  await timed(`curl -sf --compressed ${q(url(gzip))} -o ${file}`);
  console.log(
    `peak RSS of a ticks day of ${(bytes / 1e9).toFixed(2)} GB (${TICKS} ticks) to a file, MiB, median of ${RUNS} [min-max]; the line: ${LINE_MIB.toFixed(1)} MiB (120 MB)`,
  );
  console.log(`  ${''.padEnd(44)} ${['raw', 'csv', 'ndjson'].map((f) => f.padEnd(20)).join('')}`);
  for (const [path, emu] of [
    ['gzip, chunked (the default)', gzip],
    ['uncompressed, Content-Length', plain],
  ]) {
    for (const [name, node] of nodes) {
      const cells = [];
      for (const format of ['raw', 'csv', 'ndjson']) {
        const peaks = [];
        for (let run = 0; run < RUNS; run++) {
          const line = `${q(node)} ${BIN} ticks ESM25 --start 2025-03-13 --format ${format} -o ${file} --force -q --no-progress --max-rows 1000000000`;
          peaks.push((await timed(line, emu.env)).rssMiB);
        }
        const range = RUNS > 1 ? ` [${Math.min(...peaks).toFixed(0)}-${Math.max(...peaks).toFixed(0)}]` : '';
        cells.push(`${median(peaks).toFixed(1)}${range}`.padEnd(20));
      }
      console.log(`  ${`${path}, ${name}`.padEnd(44)} ${cells.join('')}`);
    }
  }
} finally {
  await Promise.all([plain.close(), gzip.close()]);
  rmSync(dir, { recursive: true, force: true });
}
