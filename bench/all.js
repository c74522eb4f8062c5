// npm run bench: every bench in turn, stopping at the first that fails. Its arguments go to bench/run.js, the
// figures of the results table (`npm run bench -- --json [file]`); npm would hand them to the last command of
// a chain of scripts. BENCH_QUICK=1 runs run.js and memory.js small and leaves out sea.js and parquet.js (npm
// run bench:sea, node bench/parquet.js): under a minute.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const QUICK = process.env.BENCH_QUICK === '1';
const benches = [
  ['run.js', process.argv.slice(2)],
  ['floor.js', []],
  ['memory.js', []],
  ['sync.js', []],
  ...(QUICK
    ? []
    : [
        ['sea.js', []],
        ['parquet.js', []],
      ]),
];
for (const [name, args] of benches) {
  const script = fileURLToPath(new URL(`./${name}`, import.meta.url));
  const { status, signal } = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`bench/${name} failed (${signal ?? `exit ${status}`})`);
    process.exit(status || 1);
  }
}
if (QUICK) console.log('\nBENCH_QUICK=1: bench/sea.js and bench/parquet.js left out (npm run bench:sea)');
