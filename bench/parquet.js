// node bench/parquet.js (after npm run build): should mdget write parquet (issue: "--format parquet, only if it
// stays small and fast")? mdget's own csv of one ticks download from the emulator (symbol, time, trading_day,
// session_code, price, size) is written as csv.gz the way mdget does it (node:zlib level 4, gzip-sink.ts)
// and as parquet by the candidate libraries, in row groups of ROW_GROUP rows, each parsed from the csv
// stream as it comes (typed columns: time as a local TIMESTAMP(MILLIS), price DOUBLE, size and trading_day
// INT32, symbol and session_code strings). Figures are MB of csv per second, output size and peak RSS;
// ratios are against csv.gz of the same run. Each case runs in its own process, RUNS times interleaved;
// medians with [min-max].
// The parquet libraries are not dependencies of mdget: a case whose library cannot be imported is printed
// as "not installed, skipped". Install them outside the repo and point BENCH_PARQUET_MODULES at that
// node_modules folder (e.g. `npm install hyparquet-writer parquet-wasm apache-arrow` in a scratch folder).
//   BENCH_ROWS=n             ticks to download and convert (default 1,500,000: ~67 MB of csv)
//   BENCH_RUNS=n             runs per case (default 3)
//   BENCH_ROW_GROUP=n        rows per parquet row group (default 65,536)
//   BENCH_PARQUET_MODULES=d  a node_modules folder to import the parquet libraries from
import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_500_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ROW_GROUP = Number(process.env.BENCH_ROW_GROUP ?? 65_536);
const SELF = fileURLToPath(import.meta.url);
const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const run = promisify(execFile);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** A library from the project's node_modules, else from BENCH_PARQUET_MODULES; undefined when neither has it. */
async function load(name) {
  try {
    return await import(name);
  } catch {}
  const dir = process.env.BENCH_PARQUET_MODULES;
  if (!dir) return undefined;
  try {
    return await import(pathToFileURL(createRequire(join(dir, 'x.js')).resolve(name)).href);
  } catch {
    return undefined;
  }
}

/** Splits a csv stream of ticks into typed columns, `size` rows at a time (the header line is dropped). */
async function* tickGroups(file, size) {
  const days = new Map();
  const fresh = () => ({
    symbol: [],
    time: new BigInt64Array(size),
    trading_day: new Int32Array(size),
    session_code: [],
    price: new Float64Array(size),
    size: new Int32Array(size),
    rows: 0,
  });
  let group = fresh();
  let rest = '';
  let header = true;
  for await (const chunk of createReadStream(file, { encoding: 'latin1', highWaterMark: 1 << 20 })) {
    const text = rest + chunk;
    let at = 0;
    for (let end = text.indexOf('\n'); end >= 0; at = end + 1, end = text.indexOf('\n', at)) {
      if (header) {
        header = false;
        continue;
      }
      // six fields, no quoting in ticks: cut at the commas rather than split() (no array per line)
      const c1 = text.indexOf(',', at);
      const c2 = text.indexOf(',', c1 + 1);
      const c3 = text.indexOf(',', c2 + 1);
      const c4 = text.indexOf(',', c3 + 1);
      const c5 = text.indexOf(',', c4 + 1);
      // 2025-03-13 00:00:00.223: the exchange's wall clock, so a TIMESTAMP not adjusted to UTC
      const t = c1 + 1;
      const dayKey = text.slice(t, t + 10);
      let day = days.get(dayKey);
      if (day === undefined) {
        day = Date.parse(`${dayKey}T00:00:00Z`);
        days.set(dayKey, day);
      }
      const two = (k) => (text.charCodeAt(t + k) - 48) * 10 + text.charCodeAt(t + k + 1) - 48;
      if (c2 - t !== 23) throw new Error(`not a tick time: ${text.slice(t, c2)}`);
      const ms = two(20) * 10 + text.charCodeAt(t + 22) - 48;
      const i = group.rows++;
      group.symbol.push(text.slice(at, c1));
      group.time[i] = BigInt(day + two(11) * 3_600_000 + two(14) * 60_000 + two(17) * 1000 + ms);
      group.trading_day[i] = +text.slice(c2 + 1, c3);
      group.session_code.push(text.slice(c3 + 1, c4));
      group.price[i] = +text.slice(c4 + 1, c5);
      group.size[i] = +text.slice(c5 + 1, end);
      if (group.rows === size) {
        yield group;
        group = fresh();
      }
    }
    rest = text.slice(at);
  }
  if (group.rows > 0) {
    for (const key of ['time', 'trading_day', 'price', 'size'])
      group[key] = group[key].subarray(0, group.rows);
    yield group;
  }
}

const COLUMNS = ['symbol', 'time', 'trading_day', 'session_code', 'price', 'size'];

/** hyparquet-writer's ParquetWriter, one write() per row group, bytes flushed to the file after each. */
async function hyparquet(input, output, codec) {
  const lib = await load('hyparquet-writer');
  if (!lib) return undefined;
  const file = createWriteStream(output);
  const writer = new lib.ByteWriter();
  writer.flush = () => {
    const ok = file.write(Buffer.from(writer.buffer.slice(0, writer.index)));
    writer.index = 0;
    return ok ? undefined : new Promise((resolve) => file.once('drain', resolve));
  };
  writer.finish = () => writer.flush();
  const required = { repetition_type: 'REQUIRED' };
  const schema = [
    { name: 'root', num_children: COLUMNS.length },
    { name: 'symbol', type: 'BYTE_ARRAY', converted_type: 'UTF8', ...required },
    {
      name: 'time',
      type: 'INT64',
      logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MILLIS' },
      ...required,
    },
    { name: 'trading_day', type: 'INT32', ...required },
    { name: 'session_code', type: 'BYTE_ARRAY', converted_type: 'UTF8', ...required },
    { name: 'price', type: 'DOUBLE', ...required },
    { name: 'size', type: 'INT32', ...required },
  ];
  const compressors = {
    GZIP: (bytes) => zlib.gzipSync(bytes, { level: 4 }),
    ...(zlib.zstdCompressSync ? { ZSTD: (bytes) => zlib.zstdCompressSync(bytes) } : {}),
  };
  const pq = new lib.ParquetWriter({ writer, schema, codec, compressors });
  for await (const group of tickGroups(input, ROW_GROUP)) {
    await pq.write({
      columnData: COLUMNS.map((name) => ({ name, data: group[name] })),
      rowGroupSize: group.rows,
    });
  }
  await pq.finish();
  file.end();
  await new Promise((resolve, reject) => file.on('close', resolve).on('error', reject));
  return true;
}

/** parquet-wasm's transformParquetStream, fed one Arrow record batch (built by apache-arrow) per row group. */
async function parquetWasm(input, output, codec) {
  const [pw, arrow] = [await load('parquet-wasm'), await load('apache-arrow')];
  if (!pw || !arrow) return undefined;
  const groups = tickGroups(input, ROW_GROUP);
  const batches = new ReadableStream({
    async pull(controller) {
      const { value: g, done } = await groups.next();
      if (done) return controller.close();
      const table = new arrow.Table({
        symbol: arrow.vectorFromArray(g.symbol, new arrow.Utf8()),
        time: arrow.vectorFromArray(Array.from(g.time, Number), new arrow.TimestampMillisecond()),
        trading_day: arrow.makeVector(g.trading_day),
        session_code: arrow.vectorFromArray(g.session_code, new arrow.Utf8()),
        price: arrow.makeVector(g.price),
        size: arrow.makeVector(g.size),
      });
      for (const batch of pw.Table.fromIPCStream(arrow.tableToIPC(table, 'stream')).recordBatches()) {
        controller.enqueue(batch);
      }
    },
  });
  const props = new pw.WriterPropertiesBuilder()
    .setCompression(pw.Compression[codec])
    .setMaxRowGroupSize(ROW_GROUP)
    .build();
  const bytes = await pw.transformParquetStream(batches, props);
  const file = createWriteStream(output);
  for await (const piece of bytes) {
    if (!file.write(piece)) await new Promise((resolve) => file.once('drain', resolve));
  }
  file.end();
  await new Promise((resolve, reject) => file.on('close', resolve).on('error', reject));
  return true;
}

const CASES = {
  'csv.gz (zlib level 4, as mdget)': async (input, output) => {
    const gzip = zlib.createGzip({ level: 4, chunkSize: 256 * 1024 });
    await pipeline(createReadStream(input, { highWaterMark: 1 << 20 }), gzip, createWriteStream(output));
    return true;
  },
  'csv parsed into row groups, no output': async (input, output) => {
    for await (const group of tickGroups(input, ROW_GROUP)) group.rows;
    await pipeline(async function* () {}, createWriteStream(output));
    return true;
  },
  'hyparquet-writer snappy (built in)': (i, o) => hyparquet(i, o, 'SNAPPY'),
  'hyparquet-writer gzip (node:zlib 4)': (i, o) => hyparquet(i, o, 'GZIP'),
  'hyparquet-writer zstd (node:zlib)': (i, o) =>
    zlib.zstdCompressSync ? hyparquet(i, o, 'ZSTD') : 'no zstd',
  'parquet-wasm snappy': (i, o) => parquetWasm(i, o, 'SNAPPY'),
  'parquet-wasm zstd': (i, o) => parquetWasm(i, o, 'ZSTD'),
};

/** The child: one case, timed from the first byte read to the output file closed. */
async function child(name, input, output) {
  const start = performance.now();
  const done = await CASES[name](input, output);
  const seconds = (performance.now() - start) / 1000;
  const result =
    done === true
      ? { seconds, bytes: statSync(output).size, rssMiB: process.resourceUsage().maxRSS / 1024 }
      : { skipped: done ?? 'not installed, skipped' };
  process.stdout.write(JSON.stringify(result));
}

async function main() {
  const { startEmulator } = await import('../dist/emulator/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'mdget-parquet-'));
  try {
    const csv = join(dir, 'ticks.csv');
    const emu = await startEmulator({ ticksPerDay: ROWS, gzip: 'never' });
    try {
      const args = ['ticks', 'ESM25', '--start', '2025-03-13', '--no-progress', '--force', '-q'];
      await run(BIN, [...args, '--max-rows', '1000000000', '-o', csv], {
        env: { ...process.env, ...emu.env },
      });
    } finally {
      await emu.close();
    }
    const csvBytes = statSync(csv).size;
    console.log(
      `mdget parquet bench: ${RUNS} run(s), Node ${process.versions.node}, ${cpus().length} cores; ` +
        `${ROWS.toLocaleString('en-US')} ticks, ${(csvBytes / 1e6).toFixed(1)} MB of csv; row groups of ${ROW_GROUP} rows`,
    );
    const names = Object.keys(CASES);
    const runs = names.map(() => []);
    for (let r = 0; r < RUNS; r++) {
      for (const [i, name] of names.entries()) {
        const { stdout } = await run(process.execPath, [SELF, '--case', name, csv, join(dir, 'out')], {
          env: process.env,
          maxBuffer: 1 << 20,
        });
        runs[i].push(JSON.parse(stdout));
      }
    }
    console.log(
      `\n  ${'case'.padEnd(36)} ${'MB/s of csv'.padStart(18)} ${'size'.padStart(9)} ${'of csv'.padStart(7)}` +
        `  ${'size vs csv.gz'.padStart(14)}  ${'speed vs csv.gz'.padStart(20)}  peak RSS`,
    );
    for (const [i, name] of names.entries()) {
      if (runs[i][0].skipped) {
        console.log(`  ${name.padEnd(36)} ${runs[i][0].skipped}`);
        continue;
      }
      const speeds = runs[i].map((x) => csvBytes / 1e6 / x.seconds);
      const ratios = runs[i].map((x, r) => runs[0][r].seconds / x.seconds);
      const bytes = median(runs[i].map((x) => x.bytes));
      const range = (xs, digits) =>
        RUNS > 1 ? ` [${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}]` : '';
      console.log(
        `  ${name.padEnd(36)} ${`${median(speeds).toFixed(1)}${range(speeds, 1)}`.padStart(18)} ` +
          `${`${(bytes / 1e6).toFixed(2)} MB`.padStart(9)} ${`${((100 * bytes) / csvBytes).toFixed(1)}%`.padStart(7)}` +
          `  ${`${(bytes / median(runs[0].map((x) => x.bytes))).toFixed(2)}x`.padStart(14)}` +
          `  ${i === 0 ? 'baseline'.padStart(20) : `${median(ratios).toFixed(2)}x${range(ratios, 2)}`.padStart(20)}` +
          `  ${median(runs[i].map((x) => x.rssMiB)).toFixed(0)} MiB`,
      );
    }
    console.log('\n  speed vs csv.gz: csv.gz time / case time (above 1: faster than csv.gz)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--case');
if (at >= 0) await child(process.argv[at + 1], process.argv[at + 2], process.argv[at + 3]);
else await main();
