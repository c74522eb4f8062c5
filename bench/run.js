// npm run bench: mdget against what users would run instead, each group against a baseline measured
// in the same run: curl on the same emulator response, `xargs -P 8 curl` on the same URL list, `jq -c '.[]'`
// on the same instruments file, `node -e 0` for start-up. Runs are interleaved (baseline, then every row,
// RUNS times) so a drifting machine moves them alike; each figure is the median with [min-max].
// Whole processes are timed by /usr/bin/time (wall, user+system CPU, peak RSS).
//   BENCH_QUICK=1    smaller inputs and one run: under a minute
//   BENCH_RUNS=n     runs per row (default 3; start-up takes at least 15)
//   --json [file]    also write every figure as JSON (default bench/results.json)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';
import { median, q, timer } from './timing.js';

const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 1 : 3));
const jsonAt = process.argv.indexOf('--json');
const JSON_FILE =
  jsonAt < 0
    ? undefined
    : (process.argv[jsonAt + 1] ?? fileURLToPath(new URL('./results.json', import.meta.url)));
const SIZE = {
  ticksPerDay: QUICK ? 2_000_000 : 8_000_000, // ~40 bytes each: ~80 MB or ~315 MB in one response
  batchSymbols: QUICK ? 4 : 10,
  batchDays: QUICK ? 10 : 20,
  latencyMs: 50,
  instruments: QUICK ? 20_000 : 200_000,
};
const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-undici.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mdget-bench-'));
const timed = timer(dir);
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const results = [];

/**
 * Measures a group: the baseline and each row `runCount` times (RUNS unless given), interleaved. `better` is 'faster' (ratio =
 * baseline time / row time, higher is better) or 'time' (ratio = row time / baseline time, for start-up).
 */
async function group(name, baseline, rows, { better = 'faster', unit, runCount = RUNS } = {}) {
  const all = [baseline, ...rows];
  const runs = all.map(() => []);
  for (let r = 0; r < runCount; r++) {
    for (const [i, row] of all.entries()) runs[i].push(await timed(row.line, row.env));
  }
  console.log(`\n${name}`);
  const out = { name, rows: [] };
  for (const [i, row] of all.entries()) {
    const seconds = runs[i].map((x) => x.seconds);
    const ratios = runs[i].map((x, r) =>
      better === 'faster' ? runs[0][r].seconds / x.seconds : x.seconds / runs[0][r].seconds,
    );
    const figure = {
      label: row.label,
      seconds: { median: median(seconds), min: Math.min(...seconds), max: Math.max(...seconds) },
      cpuSeconds: median(runs[i].map((x) => x.cpu)),
      peakRssMiB: Math.max(...runs[i].map((x) => x.rssMiB)),
      ratio: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) },
      ...(unit ? { unit: unit(median(seconds), median(runs[i].map((x) => x.cpu))) } : {}),
    };
    out.rows.push(figure);
    const range = runCount > 1 ? ` [${figure.ratio.min.toFixed(2)}-${figure.ratio.max.toFixed(2)}]` : '';
    const ratio = i === 0 ? 'baseline' : `${figure.ratio.median.toFixed(2)}x${range}`;
    console.log(
      `  ${row.label.padEnd(44)} ${figure.seconds.median.toFixed(2).padStart(7)} s  ${(figure.unit ?? '').padStart(22)}  ${ratio.padEnd(18)} peak ${figure.peakRssMiB.toFixed(0).padStart(4)} MiB`,
    );
  }
  results.push(out);
  return out;
}

const ticksUrl = (emu, extra = '') =>
  `${emu.urls.historical}/queryticks.ashx?username=demo&password=demo&symbol=ESM25&start=20250313&end=20250314&order=asc${extra}`;

/** One large response, uncompressed (Content-Length) and on the default path (gzip, chunked). */
async function largeResponse() {
  const plain = await startEmulator({ ticksPerDay: SIZE.ticksPerDay, cacheBodies: true, gzip: 'never' });
  const gzip = await startEmulator({ ticksPerDay: SIZE.ticksPerDay, cacheBodies: true });
  try {
    const file = join(dir, 'out');
    await timed(`curl -sf ${q(ticksUrl(plain))} -o ${file}`); // fills each emulator's body cache
    const bytes = statSync(file).size;
    await timed(`curl -sf --compressed ${q(ticksUrl(gzip))} -o ${file}`);
    const gb = bytes / 1e9;
    const unit = (s, cpu) => `${(bytes / 1048576 / s).toFixed(0)} MiB/s ${(cpu / gb).toFixed(2)} cpu-s/GB`;
    console.log(
      `\none ticks response of ${(bytes / 1048576).toFixed(0)} MiB (${SIZE.ticksPerDay} ticks); ratio = curl time / time`,
    );
    const mdget = `${BIN} ticks ESM25 --start 2025-03-13 --no-progress --force -q --max-rows 1000000000`;
    for (const [name, emu, curl] of [
      ['uncompressed, Content-Length', plain, 'curl -sf'],
      ['gzip, chunked (the default path)', gzip, 'curl -sf --compressed'],
    ]) {
      const env = emu.env;
      const url = ticksUrl(emu);
      await group(
        `${name}: to a file`,
        { label: `${curl} -o file`, line: `${curl} ${q(url)} -o ${file}` },
        [
          { label: 'mdget --format raw -o file', line: `${mdget} --format raw -o ${file}`, env },
          { label: 'mdget -o file (csv)', line: `${mdget} -o ${file}`, env },
          { label: 'mdget --format ndjson -o file', line: `${mdget} --format ndjson -o ${file}`, env },
          ...(emu === plain
            ? [{ label: 'bare undici, 1 MiB writes (yardstick)', line: `node ${BARE} ${q(url)} ${file}` }]
            : []),
        ],
        { unit },
      );
      await group(
        `${name}: to a pipe`,
        { label: `${curl} | cat`, line: `${curl} ${q(url)} | cat > /dev/null` },
        [
          { label: 'mdget --format raw | cat', line: `${mdget} --format raw | cat > /dev/null`, env },
          { label: 'mdget (csv) | cat', line: `${mdget} | cat > /dev/null`, env },
        ],
        { unit },
      );
    }
  } finally {
    await Promise.all([plain.close(), gzip.close()]);
  }
}

/** The work users run mdget for: many requests with latency, against xargs -P 8 curl on the same URLs. */
async function batch() {
  // Bodies replayed once generated (the same bytes, gzip and chunked, after the same latency), warmed by
  // one pass before the runs: generating and gzipping a day takes the emulator's one thread ~7 ms, so at 8
  // requests at a time, on the same two cores, the emulator set the pace of xargs and mdget alike. A real
  // service does that work on its own machines.
  const emu = await startEmulator({ latency: SIZE.latencyMs, cacheBodies: true });
  try {
    const symbols = ['ESM25', 'NQM25', 'AAPL', 'MSFT', 'ZCN25', 'CLM25', 'GCM25', 'IBM', 'SPY', 'TSLA'].slice(
      0,
      SIZE.batchSymbols,
    );
    const start = '2025-02-03';
    const end = new Date(Date.UTC(2025, 1, 3 + SIZE.batchDays)).toISOString().slice(0, 10);
    const args = ['ticks', ...symbols, '--start', start, '--end', end];
    const planned = execFileSync(BIN, [...args, '--dry-run', '--quiet'], {
      env: { ...process.env, ...emu.env },
    })
      .toString()
      .trim()
      .split('\n');
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, `${planned.map((u) => u.replaceAll('***', 'demo')).join('\n')}\n`);
    const out = join(dir, 'batch');
    const mdget = `${BIN} ${args.join(' ')} -o '${out}/{symbol}/{date}.csv' --force -q --no-progress`;
    console.log(
      `\nbatch: ${planned.length} tick requests (${symbols.length} symbols x ${SIZE.batchDays} days), ${SIZE.latencyMs} ms latency each, gzip`,
    );
    await timed(`${mdget} --concurrency 8`, emu.env); // fills the emulator's body cache
    const result = await group(
      'batch: ratio = xargs time / time',
      {
        label: 'xargs -P 8 curl --compressed',
        line: `xargs -P 8 -n 1 curl -sf --compressed -o /dev/null < ${urls}`,
      },
      [
        { label: 'mdget --concurrency 8', line: `${mdget} --concurrency 8`, env: emu.env },
        {
          label: 'mdget --concurrency 8 --max-rows (no probes)',
          line: `${mdget} --concurrency 8 --max-rows 1000000000`,
          env: emu.env,
        },
        { label: 'mdget --concurrency 1', line: `${mdget} --concurrency 1`, env: emu.env },
      ],
    );
    const [, c8, , c1] = result.rows;
    const speedup = c1.seconds.median / c8.seconds.median;
    const mark = emu.requests.length;
    await timed(`${mdget} --concurrency 8`, emu.env);
    const mine = emu.requests.slice(mark);
    const connections = new Set(mine.map((r) => r.connection)).size;
    console.log(
      `  speed-up of --concurrency 8 over 1: ${speedup.toFixed(2)} (${(speedup / 8).toFixed(2)} of the ideal 8); ` +
        `one run at --concurrency 8: ${mine.length} requests (${planned.length} planned) over ${connections} connections`,
    );
    result.speedup = {
      value: speedup,
      ofIdeal: speedup / 8,
      connections,
      requests: mine.length,
      planned: planned.length,
    };
  } finally {
    await emu.close();
  }
}

/** 200,000 instruments of the full schema, gzip: mdget to ndjson and sqlite against jq -c '.[]'. */
async function instruments() {
  const emu = await startEmulator({
    instrumentsSchema: 'full',
    instrumentsBigCount: SIZE.instruments,
    cacheBodies: true,
  });
  try {
    const json = join(dir, 'big.json');
    await timed(`curl -sf --compressed ${q(`${emu.urls.instruments}/BIG-instruments.json`)} -o ${json}`);
    const entries = SIZE.instruments;
    const unit = (s) => `${Math.round(entries / s).toLocaleString('en-US')} entries/s`;
    console.log(
      `\ninstruments: BIG, ${(statSync(json).size / 1048576).toFixed(0)} MiB, ${entries} entries, sent gzip`,
    );
    if (!has('jq')) {
      console.log('  (jq not installed: no baseline)');
      return;
    }
    const base = `${BIN} instruments BIG --no-progress --force -q`;
    await group(
      'instruments: ratio = jq time / time',
      { label: "jq -c '.[]' file > /dev/null", line: `jq -c '.[]' ${json} > /dev/null` },
      [
        {
          label: 'mdget instruments --format ndjson -o file',
          line: `${base} --format ndjson -o ${join(dir, 'i.ndjson')}`,
          env: emu.env,
        },
        {
          label: 'mdget instruments --format sqlite -o file',
          line: `${base} --format sqlite -o ${join(dir, 'i.db')}`,
          env: emu.env,
        },
      ],
      { unit },
    );
  } finally {
    await emu.close();
  }
}

/**
 * Start-up: --help and a dry run against `node -e 0` (ratio = time / node's time; lower is better). Each timed
 * line runs its command ten times: GNU time counts wall time in hundredths of a second, a fifth of what
 * `node -e 0` takes on a fast machine of this class.
 */
async function startup() {
  const emu = await startEmulator({});
  const tenTimes = (line) =>
    `sh -c ${q(`for i in 1 2 3 4 5 6 7 8 9 10; do ${line} > /dev/null || exit 1; done`)}`;
  try {
    await group(
      'start-up: ratio = time / node -e 0 (each timed line runs its command ten times)',
      { label: 'node -e 0', line: tenTimes('node -e 0') },
      [
        { label: 'mdget --help', line: tenTimes(`${BIN} --help`) },
        {
          label: 'mdget ticks X --start 2025-03-13 --dry-run',
          line: tenTimes(`${BIN} ticks X --start 2025-03-13 --dry-run`),
          env: emu.env,
        },
      ],
      {
        better: 'time',
        unit: (s) => `${((s * 1000) / 10).toFixed(0)} ms a run`,
        runCount: Math.max(RUNS, 9),
      },
    );
  } finally {
    await emu.close();
  }
}

console.log(
  `mdget bench: ${QUICK ? 'quick, ' : ''}${RUNS} run(s) per row, Node ${process.versions.node}, ${cpus().length} cores`,
);
try {
  await startup();
  await largeResponse();
  await batch();
  await instruments();
  if (JSON_FILE) {
    writeFileSync(
      JSON_FILE,
      `${JSON.stringify({ date: new Date().toISOString(), node: process.versions.node, cores: cpus().length, quick: QUICK, runs: RUNS, groups: results }, null, 2)}\n`,
    );
    console.log(`\nfigures written to ${JSON_FILE}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
