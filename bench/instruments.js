// node bench/instruments.js: `mdget instruments` against `jq -c '.[]'` on the same file, measured
// in the same run. The emulator serves its 200,000-entry full-schema file gzip-compressed (~230 MiB
// decoded); jq reads the already-downloaded, uncompressed file. Rows run interleaved (jq, then every
// format, RUNS times) so a drifting machine moves them alike; figures are medians with [min-max] ratios.
// Whole processes are timed by /usr/bin/time (wall, user+system CPU, peak RSS).
//   BENCH_RUNS=n        runs per row (default 3)
//   BENCH_ENTRIES=n     entries in the file (default 200000)
//   BENCH_NODE=path     the Node that runs mdget (default: this one), e.g. $(node scripts/node-release.js 24)
//   --json [file]       also write every figure as JSON (default bench/instruments.json)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';
import { median, q, timer } from './timing.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 200_000);
const NODE = process.env.BENCH_NODE ?? process.execPath;
const jsonAt = process.argv.indexOf('--json');
const JSON_FILE =
  jsonAt < 0
    ? undefined
    : (process.argv[jsonAt + 1] ?? fileURLToPath(new URL('./instruments.json', import.meta.url)));
const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const FORMATS = ['ndjson', 'csv', 'json', 'sqlite'];

if (spawnSync('sh', ['-c', 'command -v jq']).status !== 0) throw new Error('this bench needs jq');
const dir = mkdtempSync(join(tmpdir(), 'mdget-bench-instruments-'));
const timed = timer(dir);

const emu = await startEmulator({
  instrumentsSchema: 'full',
  instrumentsBigCount: ENTRIES,
  cacheBodies: true,
});
try {
  const json = join(dir, 'big.json');
  // Downloads jq's input and fills the emulator's body cache, so every row gets the same stored gzip body.
  await timed(`curl -sf --compressed ${q(`${emu.urls.instruments}/BIG-instruments.json`)} -o ${json}`);
  const version = spawnSync(NODE, ['--version']).stdout.toString().trim();
  console.log(
    `mdget bench instruments: ${RUNS} run(s) per row, mdget on Node ${version}, ${cpus().length} cores\n` +
      `BIG: ${ENTRIES} entries, ${(statSync(json).size / 1048576).toFixed(0)} MiB decoded, sent gzip; ratio = jq time / time`,
  );
  const rows = [
    { label: "jq -c '.[]' file > /dev/null", line: `jq -c '.[]' ${json} > /dev/null` },
    ...FORMATS.map((format) => ({
      label: `mdget instruments --format ${format}`,
      line: `${q(NODE)} ${BIN} instruments BIG --no-progress --force -q --format ${format} -o ${join(dir, `out.${format}`)}`,
      env: emu.env,
    })),
  ];
  const runs = rows.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    for (const [i, row] of rows.entries()) runs[i].push(await timed(row.line, row.env));
  }
  const figures = rows.map((row, i) => {
    const seconds = runs[i].map((x) => x.seconds);
    const ratios = runs[i].map((x, r) => runs[0][r].seconds / x.seconds);
    return {
      label: row.label,
      seconds: { median: median(seconds), min: Math.min(...seconds), max: Math.max(...seconds) },
      cpuSeconds: median(runs[i].map((x) => x.cpu)),
      entriesPerSecond: ENTRIES / median(seconds),
      peakRssMiB: {
        median: median(runs[i].map((x) => x.rssMiB)),
        max: Math.max(...runs[i].map((x) => x.rssMiB)),
      },
      ratio: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) },
    };
  });
  for (const [i, figure] of figures.entries()) {
    const ratio =
      i === 0
        ? 'baseline'
        : `${figure.ratio.median.toFixed(2)}x${RUNS > 1 ? ` [${figure.ratio.min.toFixed(2)}-${figure.ratio.max.toFixed(2)}]` : ''}`;
    console.log(
      `  ${figure.label.padEnd(36)} ${figure.seconds.median.toFixed(2).padStart(6)} s  cpu ${figure.cpuSeconds.toFixed(2).padStart(6)} s  ` +
        `${Math.round(figure.entriesPerSecond).toLocaleString('en-US').padStart(7)} entries/s  ${ratio.padEnd(18)} ` +
        `peak ${figure.peakRssMiB.median.toFixed(0)} MiB (max ${figure.peakRssMiB.max.toFixed(0)})`,
    );
  }
  if (JSON_FILE) {
    const result = { date: new Date().toISOString(), node: version, cores: cpus().length, entries: ENTRIES };
    writeFileSync(JSON_FILE, `${JSON.stringify({ ...result, runs: RUNS, rows: figures }, null, 2)}\n`);
    console.log(`figures written to ${JSON_FILE}`);
  }
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
