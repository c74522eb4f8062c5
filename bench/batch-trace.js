// node bench/batch-trace.js [N] [RTT ms] [c] [--cpu-prof DIR] [-- mdget flags]: where the time of one batch goes. One mdget
// process runs N tick requests (one output each) against the emulator in this process, which notes when each
// request arrives and when its answer is sent; from those, against the process's start and exit:
//   start-up + planning   process start to the first request
//   gaps                  time between the first arrival and the last answer with fewer than c in flight
//   tail                  the last answer to the process's exit (the last commits, exit)
//   extra requests        sent minus planned (probes, continuations)
// and the floor, ceil(N / c) x RTT. --cpu-prof writes the mdget process's CPU profile into DIR.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';

const BIN = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const SYMBOLS = ['ESM25', 'NQM25', 'AAPL', 'MSFT', 'ZCN25', 'CLM25', 'GCM25', 'IBM', 'SPY', 'TSLA'];

/** The arguments of a ticks batch of about `n` requests: 10 symbols (fewer below 10) over n / 10 days. */
export function batchArgs(n) {
  const symbols = SYMBOLS.slice(0, Math.min(10, n));
  const days = Math.ceil(n / symbols.length);
  const end = new Date(Date.UTC(2025, 1, 3 + days)).toISOString().slice(0, 10);
  return ['ticks', ...symbols, '--start', '2025-02-03', '--end', end];
}

/** The URLs mdget plans for `args` (its --dry-run), credentials put back for curl. */
export function plannedUrls(args, env) {
  return execFileSync(BIN, [...args, '--dry-run', '--quiet'], { env: { ...process.env, ...env } })
    .toString()
    .trim()
    .split('\n')
    .map((u) => u.replaceAll('***', 'demo'));
}

/** Runs one mdget batch with the emulator's in-flight count traced; resolves with the breakdown (ms). */
export async function traceBatch(emu, args, concurrency, { out, extra = [], nodeFlags = [] } = {}) {
  const spans = [];
  const open = new Map();
  emu.hooks.beforeAnswer = (r) => {
    open.set(r, { start: performance.now() });
  };
  emu.hooks.afterAnswer = (r) => {
    const span = open.get(r);
    if (span) spans.push({ ...span, end: performance.now() });
  };
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      BIN,
      ...args,
      '-o',
      `${out}/{symbol}/{date}.csv`,
      '--force',
      '-q',
      '--no-progress',
      '--concurrency',
      String(concurrency),
      ...extra,
    ],
    { env: { ...process.env, ...emu.env }, stdio: 'inherit' },
  );
  const status = await new Promise((resolve) => child.on('close', resolve));
  const exited = performance.now();
  emu.hooks.beforeAnswer = undefined;
  emu.hooks.afterAnswer = undefined;
  if (status !== 0) throw new Error(`mdget exited ${status}`);
  spans.sort((a, b) => a.start - b.start);
  const first = spans[0].start;
  const last = Math.max(...spans.map((s) => s.end));
  // sweep the starts and ends: time spent with fewer than c requests in flight
  const events = spans.flatMap((s) => [
    [s.start, 1],
    [s.end, -1],
  ]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0;
  let peak = 0;
  let gaps = 0;
  let at = first;
  for (const [t, d] of events) {
    if (inFlight < concurrency) gaps += t - at;
    at = t;
    inFlight += d;
    peak = Math.max(peak, inFlight);
  }
  return {
    totalMs: exited - started,
    startupMs: first - started,
    networkMs: last - first,
    gapMs: gaps,
    tailMs: exited - last,
    sent: spans.length,
    peak,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [n = 200, rtt = 50, c = 8] = process.argv.slice(2, 5).map(Number);
  const dash = process.argv.indexOf('--');
  const extra = dash < 0 ? [] : process.argv.slice(dash + 1);
  const profAt = process.argv.indexOf('--cpu-prof');
  const nodeFlags = profAt < 0 ? [] : ['--cpu-prof', `--cpu-prof-dir=${process.argv[profAt + 1]}`];
  const emu = await startEmulator({ latency: rtt, cacheBodies: true });
  const dir = mkdtempSync(join(tmpdir(), 'mdget-trace-'));
  try {
    const args = batchArgs(n);
    const planned = plannedUrls(args, emu.env).length;
    await traceBatch(emu, args, c, { out: join(dir, 'warm') }); // fills the body cache
    const t = await traceBatch(emu, args, c, { out: join(dir, 'out'), nodeFlags, extra });
    const floor = Math.ceil(planned / c) * rtt;
    const ms = (x) => `${x.toFixed(0)} ms`;
    console.log(`${planned} planned, ${t.sent} sent, peak ${t.peak} in flight (c = ${c}), RTT ${rtt} ms`);
    console.log(`total ${ms(t.totalMs)}: ${(t.totalMs / floor).toFixed(2)}x the floor (${ms(floor)})`);
    console.log(`  start-up + planning  ${ms(t.startupMs)}`);
    console.log(
      `  first to last answer ${ms(t.networkMs)} (floor ${ms(floor)}), of which under c in flight ${ms(t.gapMs)}`,
    );
    console.log(`  last answer to exit  ${ms(t.tailMs)}`);
  } finally {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
