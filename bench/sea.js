// npm run bench:sea (also the end of npm run bench): the single binary (npm run sea), measured in one run.
// 1. Start-up: `build/mdget --help` against `node -e 0` of the same Node 24, built without and with a
//    V8 code cache and with a start-up snapshot (scripts/build-sea.js --startup=...). Target: <= 1.3x.
// 2. SQLite on the emulator's BIG exchange (100,000 entries): the insert path alone (bench/sqlite-insert.js:
//    better-sqlite3 on this machine's Node 20, node:sqlite on Node 24), then the whole
//    `instruments BIG --format sqlite` through bin/mdget on each Node and through build/mdget.
// It prints figures and ratios, not verdicts; build/mdget is left built the default way (code cache).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';
import { buildSea } from '../scripts/build-sea.js';
import { nodeRelease } from '../scripts/node-release.js';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 30);
const SQLITE_RUNS = Number(process.env.BENCH_SQLITE_RUNS ?? 3);
const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const INSERT = fileURLToPath(new URL('./sqlite-insert.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mdget-bench-sea-'));
const node = nodeRelease(24);
const node20 = process.execPath;
const ms = (value) => `${value.toFixed(1).padStart(7)} ms`;

/** Wall time of one run of `command args`, in ms; throws if it fails. */
function once(command, args, env) {
  const started = process.hrtime.bigint();
  const { status, stderr } = spawnSync(command, args, { env: { ...process.env, ...env }, stdio: 'pipe' });
  if (status !== 0) throw new Error(`failed (${status}): ${command} ${args.join(' ')}\n${stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The same, without blocking this process, where the emulator answers the run's requests. */
async function onceAsync(command, args, env) {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const status = await new Promise((resolve) => child.on('close', resolve));
  if (status !== 0) throw new Error(`failed (${status}): ${command} ${args.join(' ')}\n${stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
try {
  console.log(`single binary on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()}\n`);
  const binaries = {};
  for (const startup of ['plain', 'snapshot', 'code-cache']) {
    const started = performance.now();
    const built = await buildSea({ node, startup });
    binaries[startup] = join(dir, `mdget-${startup}`);
    copyFileSync(built, binaries[startup]);
    console.log(`built --startup=${startup} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  // Interleaved, so a busy machine slows every candidate alike; the best run is the least disturbed one.
  const candidates = [
    ['node -e 0', node, ['-e', '0']],
    ...Object.entries(binaries).map(([startup, bin]) => [`build/mdget --help (${startup})`, bin, ['--help']]),
    ['node bin/mdget --help (npm install)', node, ['--', BIN, '--help']],
  ];
  const times = candidates.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    candidates.forEach(([, command, args], i) => {
      times[i].push(once(command, args));
    });
  }
  const baseline = Math.min(...times[0]);
  console.log(`\nstart-up, ${RUNS} runs each (baseline = node -e 0 of the same Node 24):`);
  candidates.forEach(([label], i) => {
    const best = Math.min(...times[i]);
    console.log(
      `  ${label.padEnd(38)} best ${ms(best)}  median ${ms(median(times[i]))}  ${(best / baseline).toFixed(2)}x`,
    );
  });

  const json = join(dir, 'BIG-instruments.json');
  const response = await fetch(`${emulator.urls.instruments}/BIG-instruments.json`);
  writeFileSync(json, Buffer.from(await response.arrayBuffer()));
  let entries = 0;
  console.log(`\nSQLite, BIG exchange, best of ${SQLITE_RUNS}:`);
  for (const runtime of [node20, node]) {
    const results = [];
    for (let run = 0; run < SQLITE_RUNS; run++) {
      const out = execFileSync(runtime, [INSERT, json, join(dir, 'insert.db')], { encoding: 'utf8' });
      results.push(JSON.parse(out));
    }
    const best = results.reduce((a, b) => (a.ms <= b.ms ? a : b));
    entries = best.entries;
    console.log(
      `  insert only, ${`${best.node} ${best.backend}`.padEnd(30)} ${ms(best.ms)}  ${Math.round((best.entries / best.ms) * 1000).toLocaleString('en-US')} entries/s  (cpu ${best.cpuMs.toFixed(0)} ms)`,
    );
  }
  const args = ['instruments', 'BIG', '--format', 'sqlite', '--force', '--no-progress', '-o'];
  const whole = [
    ['bin/mdget on Node 20 (better-sqlite3)', node20, ['--', BIN]],
    ['bin/mdget on Node 24 (node:sqlite)', node, ['--', BIN]],
    ['build/mdget (node:sqlite)', binaries['code-cache'], []],
  ];
  for (const [label, command, prefix] of whole) {
    const env = { ...emulator.env, PATH: `${dirname(command)}:${process.env.PATH}` };
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < SQLITE_RUNS; run++) {
      best = Math.min(best, await onceAsync(command, [...prefix, ...args, join(dir, 'whole.db')], env));
    }
    const rate = Math.round((entries / best) * 1000).toLocaleString('en-US');
    console.log(`  whole command, ${label.padEnd(38)} ${ms(best)}  ${rate} entries/s`);
  }
} finally {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
}
