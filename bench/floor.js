// node bench/floor.js: batches of tick requests against the floor, the least time N requests can take c at
// a time when each takes RTT: ceil(N / c) x RTT. For N = 200 and 2,000, RTT = 25, 50 and 100 ms and c = 4,
// 8 and 32, one mdget process (one file per request), `xargs -P c curl` over the same URLs (what
// `mdget ... --dry-run` prints) and a bare Node client over them (bare-batch.js: undici, bodies inflated
// and dropped, the least a Node client takes here) run in turn, BENCH_RUNS times (default 3), medians
// kept; mdget's requests are counted at the emulator. The emulator replays bodies it made once (warmed by a first pass), so the
// figures are the clients'. Without curl the baseline is left out, with a note.
//   BENCH_QUICK=1    N = 200 only, one run
//   FLOOR_ROWS=N:RTT:c,...   only these rows (e.g. 200:50:8)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';
import { batchArgs, plannedUrls } from './batch-trace.js';
import { median, q, timer } from './timing.js';

const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 1 : 3));
const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-batch.js', import.meta.url));
const ROWS = process.env.FLOOR_ROWS
  ? process.env.FLOOR_ROWS.split(',').map((row) => row.split(':').map(Number))
  : (QUICK ? [200] : [200, 2000]).flatMap((n) =>
      [25, 50, 100].flatMap((rtt) => [4, 8, 32].map((c) => [n, rtt, c])),
    );

const dir = mkdtempSync(join(tmpdir(), 'mdget-floor-'));
const timed = timer(dir);
const { spawnSync } = await import('node:child_process');
const hasCurl = spawnSync('sh', ['-c', 'command -v curl && command -v xargs']).status === 0;

console.log(
  `\nbatch against the floor, ceil(N / c) x RTT: one file per tick request, gzip, ${RUNS} run(s) a row, medians`,
);
if (!hasCurl) console.log('  (curl or xargs not installed: no xargs -P c curl baseline)');
console.log(
  `  ${'N'.padStart(5)} ${'RTT'.padStart(4)} ${'c'.padStart(3)} ${'floor'.padStart(7)} ${'mdget'.padStart(7)} ${'/floor'.padStart(6)} ${'xargs'.padStart(7)} ${'/floor'.padStart(6)} ${'mdget/xargs'.padStart(11)} ${'node'.padStart(7)} ${'/floor'.padStart(6)} ${'mdget/node'.padStart(10)}  sent/planned`,
);
const emu = await startEmulator({ cacheBodies: true });
const figures = [];
try {
  const warmed = new Set();
  for (const [n, rtt, c] of ROWS) {
    emu.options.latency = rtt;
    const args = batchArgs(n);
    const urls = plannedUrls(args, emu.env);
    const list = join(dir, `urls-${n}.txt`);
    writeFileSync(list, `${urls.join('\n')}\n`);
    const out = join(dir, 'out');
    const mdget = `${BIN} ${args.join(' ')} -o ${q(`${out}/{symbol}/{date}.csv`)} --force -q --no-progress --concurrency ${c}`;
    const xargs = `xargs -P ${c} -n 1 curl -sf --compressed -o /dev/null < ${list}`;
    const bare = `${q(process.execPath)} ${q(BARE)} ${list} ${c}`;
    if (!warmed.has(n)) {
      await timed(mdget, emu.env); // the emulator makes each body once
      warmed.add(n);
    }
    const mine = [];
    const theirs = [];
    const nodes = [];
    let sent = 0;
    for (let r = 0; r < RUNS; r++) {
      if (hasCurl) theirs.push((await timed(xargs)).seconds);
      nodes.push((await timed(bare)).seconds);
      const mark = emu.requests.length;
      mine.push((await timed(mdget, emu.env)).seconds);
      sent = emu.requests.length - mark;
    }
    const floor = (Math.ceil(urls.length / c) * rtt) / 1000;
    const m = median(mine);
    const x = hasCurl ? median(theirs) : undefined;
    const pairs = hasCurl ? mine.map((s, i) => s / theirs[i]) : [];
    const b = median(nodes);
    figures.push({ n: urls.length, rtt, c, floor, mdget: m, xargs: x, node: b, sent, planned: urls.length });
    const f = (s) => (s === undefined ? '' : s.toFixed(2)).padStart(7);
    const ratio = (s) => (s === undefined ? '' : `${(s / floor).toFixed(2)}x`).padStart(6);
    console.log(
      `  ${String(urls.length).padStart(5)} ${String(rtt).padStart(4)} ${String(c).padStart(3)} ${f(floor)} ${f(m)} ${ratio(m)} ${f(x)} ${ratio(x)} ${(hasCurl ? `${median(pairs).toFixed(2)}x` : '').padStart(11)} ${f(b)} ${ratio(b)} ${`${median(mine.map((s, i) => s / nodes[i])).toFixed(2)}x`.padStart(10)}  ${sent}/${urls.length}`,
    );
  }
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
const worst = (key) => Math.max(...figures.map((x) => x[key] / x.floor)).toFixed(2);
console.log(`  worst / floor: mdget ${worst('mdget')}x, the bare Node client ${worst('node')}x`);
