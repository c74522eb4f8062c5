// npm run bench: throughput and peak RSS of mdget against curl on the same emulator response, measured in
// the same run (issue 3), startup against `node -e 0`, and the instruments pipeline against jq (issue 5).
// It prints ratios, not verdicts. The emulator runs in this process, so every measurement is asynchronous.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';

const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const TICKS = Number(process.env.BENCH_TICKS ?? 14_000_000); // ~39 bytes each: > 500 MiB in one response
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'mdget-bench-'));
const hasTime = existsSync('/usr/bin/time');
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const q = (s) => `'${s}'`;
const mib = (bytes) => bytes / 1_048_576;

/** Runs a shell line (under /usr/bin/time when present): seconds and peak RSS (MiB) of the timed command. */
async function timed(line, env = {}) {
  const marker = join(dir, 'time.txt');
  const wrapped = hasTime ? `/usr/bin/time -o ${marker} -f '%e %M' ${line}` : line;
  const started = process.hrtime.bigint();
  const child = spawn('bash', ['--norc', '--noprofile', '-o', 'pipefail', '-c', wrapped], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  const status = await new Promise((resolve) => child.on('close', resolve));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (status !== 0) throw new Error(`failed (${status}): ${line}\n${stderr}`);
  const rssMiB = hasTime ? Number(readFileSync(marker, 'utf8').trim().split(/\s+/)[1]) / 1024 : Number.NaN;
  return { seconds, rssMiB };
}

/** The fastest of RUNS runs, with the highest peak RSS seen. */
async function best(label, line, env) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timed(line, env));
  const seconds = Math.min(...runs.map((r) => r.seconds));
  return { label, seconds, rssMiB: Math.max(...runs.map((r) => r.rssMiB)) };
}

function print(rows, baseline, unit) {
  for (const r of rows) {
    const ratio = baseline.seconds / r.seconds;
    console.log(
      `  ${r.label.padEnd(34)} ${r.seconds.toFixed(2).padStart(6)} s  ${unit(r).padStart(16)}  ${ratio.toFixed(2)}x baseline  peak RSS ${r.rssMiB.toFixed(0)} MiB`,
    );
  }
}

const emulator = await startEmulator({
  ticksPerDay: TICKS,
  cacheBodies: true,
  gzip: 'never',
  transfer: 'length',
});
try {
  const env = emulator.env;
  const url = `${emulator.urls.historical}/queryticks.ashx?username=${env.MDGET_USERNAME}&password=${env.MDGET_PASSWORD}&symbol=ESM25&start=20250313&end=20250314&order=asc`;
  const file = join(dir, 'out.csv');
  await timed(`curl -sf ${q(url)} -o ${file}`); // warm-up: fills the emulator's body cache
  const bytes = statSync(file).size;
  const rate = (r) => `${(mib(bytes) / r.seconds).toFixed(0)} MiB/s`;
  console.log(
    `ticks: one ${mib(bytes).toFixed(0)} MiB response (${TICKS} ticks), best of ${RUNS}, baseline = curl\n`,
  );

  const mdget = `${BIN} ticks ESM25 --start 2025-03-13 --no-progress --force`;
  console.log('to a file:');
  const curlFile = await best('curl -o file', `curl -sf ${q(url)} -o ${file}`);
  print(
    [
      curlFile,
      await best('mdget --format raw -o file', `${mdget} --format raw -o ${file}`, env),
      await best('mdget --format raw --no-fsync -o file', `${mdget} --format raw --no-fsync -o ${file}`, env),
      await best('mdget (csv: LF, header) -o file', `${mdget} -o ${file}`, env),
    ],
    curlFile,
    rate,
  );
  console.log('to stdout, piped to cat > /dev/null:');
  const curlPipe = await best('curl | cat', `curl -sf ${q(url)} | cat > /dev/null`);
  print(
    [
      curlPipe,
      await best('mdget --format raw | cat', `${mdget} --format raw | cat > /dev/null`, env),
      await best('mdget (csv: LF, header) | cat', `${mdget} | cat > /dev/null`, env),
    ],
    curlPipe,
    rate,
  );

  console.log('\nstartup (baseline = node -e 0):');
  const node0 = await best('node -e 0', 'node -e 0');
  print(
    [node0, await best('mdget --help', `${BIN} --help`)],
    node0,
    (r) => `${(r.seconds * 1000).toFixed(0)} ms`,
  );

  if (process.env.BENCH_SKIP_INSTRUMENTS !== '1') {
    const json = join(dir, 'big.json');
    await timed(`curl -sf ${q(`${emulator.urls.instruments}/BIG-instruments.json`)} -o ${json}`);
    const entries = Number(execFileSync('jq', ['length', json]).toString().trim());
    const perSecond = (r) => `${Math.round(entries / r.seconds).toLocaleString('en-US')} entries/s`;
    console.log(
      `\ninstruments: BIG-instruments.json, ${mib(statSync(json).size).toFixed(0)} MiB, ${entries} entries`,
    );
    const base = `${BIN} instruments BIG --no-progress --force`;
    const rows = [
      await best(
        'mdget instruments --format sqlite',
        `${base} --format sqlite -o ${join(dir, 'big.db')}`,
        env,
      ),
      await best(
        'mdget instruments --format ndjson',
        `${base} --format ndjson -o ${join(dir, 'big.ndjson')}`,
        env,
      ),
    ];
    if (has('jq')) {
      const jq = await best("jq -c '.[]' file > /dev/null", `jq -c '.[]' ${json} > /dev/null`);
      print([jq, ...rows], jq, perSecond);
    } else {
      console.log('  (jq not installed: no baseline)');
      print(rows, rows[0], perSecond);
    }
  }
} finally {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
}
