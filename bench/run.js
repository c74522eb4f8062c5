// npm run bench: throughput and peak RSS of mdget against curl on the same emulator response, measured in
// the same run (issue 3), and the instruments pipeline against jq (issue 5). Prints ratios, not verdicts.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';

const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const TICKS = Number(process.env.BENCH_TICKS ?? 13_000_000); // ~40 bytes each: > 500 MB in one response
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'mdget-bench-'));
const hasTime = existsSync('/usr/bin/time');
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Runs a shell line under /usr/bin/time; returns seconds and peak RSS (MiB) of the timed command. */
function timed(line, env = {}) {
  const marker = join(dir, 'time.txt');
  const wrapped = hasTime ? `/usr/bin/time -o ${marker} -f '%e %M' ${line}` : line;
  const started = process.hrtime.bigint();
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', wrapped], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`failed (${result.status}): ${line}\n${result.stderr}`);
  const rssMiB = hasTime
    ? Number(execFileSync('cat', [marker]).toString().trim().split(/\s+/)[1]) / 1024
    : Number.NaN;
  return { seconds, rssMiB };
}

function best(label, line, env) {
  const runs = Array.from({ length: RUNS }, () => timed(line, env));
  const fastest = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  return { label, seconds: fastest.seconds, rssMiB: Math.max(...runs.map((r) => r.rssMiB)) };
}

const mb = (bytes) => (bytes / 1_048_576).toFixed(0);
const q = (s) => `'${s}'`;

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
  timed(`curl -sf ${q(url)} -o ${file}`); // warm-up: fills the emulator's body cache
  const bytes = statSync(file).size;
  console.log(
    `ticks response: ${mb(bytes)} MiB (${TICKS} ticks), best of ${RUNS} runs, same emulator for every row\n`,
  );

  const mdget = `node ${BIN} ticks ESM25 --start 2025-03-13 --no-progress --force`;
  const rows = [
    [
      'file',
      best('curl -o file', `curl -sf ${q(url)} -o ${file}`),
      best('mdget --format raw -o file', `${mdget} --format raw -o ${file}`, env),
      best('mdget (csv, LF) -o file', `${mdget} -o ${file}`, env),
    ],
    [
      'stdout',
      best('curl | cat', `curl -sf ${q(url)} | cat > /dev/null`),
      best('mdget --format raw | cat', `${mdget} --format raw | cat > /dev/null`, env),
      best('mdget (csv, LF) | cat', `${mdget} | cat > /dev/null`, env),
    ],
  ];
  for (const [target, baseline, ...candidates] of rows) {
    console.log(`${target}:`);
    for (const r of [baseline, ...candidates]) {
      const rate = bytes / 1_048_576 / r.seconds;
      const ratio = baseline.seconds / r.seconds;
      console.log(
        `  ${r.label.padEnd(30)} ${r.seconds.toFixed(2)} s  ${rate.toFixed(0).padStart(5)} MiB/s  ${ratio.toFixed(2)}x curl  peak RSS ${r.rssMiB.toFixed(0)} MiB`,
      );
    }
  }
  console.log('\nstartup:');
  const node0 = best('node -e 0', 'node -e 0');
  const help = best('mdget --help', `node ${BIN} --help`);
  console.log(
    `  node -e 0      ${(node0.seconds * 1000).toFixed(0)} ms\n  mdget --help   ${(help.seconds * 1000).toFixed(0)} ms  (${(help.seconds / node0.seconds).toFixed(2)}x node -e 0)`,
  );

  if (
    process.env.BENCH_SKIP_INSTRUMENTS !== '1' &&
    existsSync(new URL('../dist/core/reference', import.meta.url))
  ) {
    const instrumentsUrl = `${emulator.urls.instruments}/BIG-instruments.json`;
    const json = join(dir, 'big.json');
    timed(`curl -sf ${q(instrumentsUrl)} -o ${json}`);
    const entries =
      Number(
        execFileSync('node', [
          '-e',
          `let n=0;const s=require('fs').readFileSync(${JSON.stringify(json)},'utf8');for(const m of s.matchAll(/"marketId"/g))n++;console.log(n)`,
        ]).toString(),
      ) || 0;
    console.log(
      `\ninstruments: BIG-instruments.json ${mb(statSync(json).size)} MiB, ~${entries} entries (marketId keys)`,
    );
    const base = `node ${BIN} instruments BIG --no-progress --force`;
    const list = [
      best('mdget instruments --format sqlite', `${base} --format sqlite -o ${join(dir, 'big.db')}`, env),
      best('mdget instruments --format ndjson', `${base} --format ndjson -o ${join(dir, 'big.ndjson')}`, env),
    ];
    if (has('jq')) list.unshift(best("jq -c '.[]' (baseline)", `jq -c '.[]' ${json} > /dev/null`));
    else console.log('  jq not installed: baseline skipped');
    const jq = has('jq') ? list[0] : undefined;
    for (const r of list) {
      const perSecond = entries / r.seconds;
      console.log(
        `  ${r.label.padEnd(36)} ${r.seconds.toFixed(2)} s  ${Math.round(perSecond).toLocaleString('en-US').padStart(9)} entries/s  ${jq ? `${(jq.seconds / r.seconds).toFixed(2)}x jq  ` : ''}peak RSS ${r.rssMiB.toFixed(0)} MiB`,
      );
    }
  }
} finally {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
}
