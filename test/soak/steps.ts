/**
 * Executes one step of a schedule against its world, and notes a rule broken on the way: a sync may fail
 * under a fault, but only with a documented exit status (docs/cli.md#exit-codes), never as a crash.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { Fault } from '../../src/emulator/index.js';
import { dataFiles, signatureOf } from './files.js';
import { type RunEnd, runHere, type Spawned, spawnMdget } from './processes.js';
import { seeded } from './random.js';
import type { ServerFault, Step } from './schedule.js';
import { fillDisk, freeDisk, setClock, type World } from './world.js';

/** Exit statuses a sync may end with under faults: done, refused, network, output, partial. */
const SYNC_STATUSES = new Set([0, 4, 5, 6, 7]);
/** The status of a run stopped by SIGTERM (docs/cli.md#exit-codes). */
const SIGTERM_STATUS = 143;

/** Runs `step`; returns one line saying what happened. */
export async function runStep(world: World, step: Step): Promise<string> {
  switch (step.op) {
    case 'clock':
      setClock(world, new Date(world.clock.getTime() + step.hours * 3_600_000));
      return `now ${world.clock.toISOString()}`;
    case 'sync':
      return await syncStep(world, step);
    case 'damage':
      return damage(world, step);
    case 'ledger':
      return damageLedger(world, step);
    case 'lock':
      return writeLock(world, step.how);
  }
}

async function syncStep(world: World, step: Extract<Step, { op: 'sync' }>): Promise<string> {
  const args = ['sync', '-q', '--concurrency', String(step.concurrency), '--retries', String(step.retries)];
  if (step.server) applyFault(world, step.server);
  const filled = step.diskFreeKiB !== undefined && fillDisk(world, step.diskFreeKiB);
  try {
    // a full disk may make mdget fail in ways that end a process (a rejection nobody handles): in a
    // process of its own, that is an exit status to judge, not the end of the harness
    if (!step.kill && !step.second && step.diskFreeKiB === undefined) {
      const run = await runHere(world, args);
      const end: RunEnd = { code: run.code, signal: null, stderr: run.stderr };
      check(world, 'sync', end, false);
      return outcome(end);
    }
    const first = spawnMdget(world, args);
    const second = step.second
      ? spawnMdget(world, step.second === 'shard' ? [...args, '--shard', '1/2'] : args)
      : undefined;
    let killed = false;
    if (step.kill) armKill(world, step.kill, first, () => (killed = true));
    const ends = await Promise.all([first.ended, second?.ended]);
    world.emu.hooks.beforeAnswer = undefined;
    world.emu.hooks.afterAnswer = undefined;
    const [a, b] = ends;
    check(world, 'sync', a, killed && step.kill?.signal === 'SIGTERM');
    if (b) check(world, `second sync (${step.second})`, b, false);
    if (killed && step.kill?.reusePid) reuseLockPid(world);
    return [
      outcome(a),
      step.kill ? (killed ? `(${step.kill.signal} sent)` : '(ended before the kill)') : '',
      b ? `second: ${outcome(b)}` : '',
      step.diskFreeKiB !== undefined && !filled ? '(no tmpfs: the disk was not filled)' : '',
    ]
      .filter(Boolean)
      .join(' ');
  } finally {
    world.emu.options.faults = [];
    world.emu.options.ignoreStart = false;
    if (filled) freeDisk(world);
  }
}

/** Sends the kill's signal when the emulator gets the `at`-th request of this step (all processes). */
function armKill(
  world: World,
  kill: NonNullable<Extract<Step, { op: 'sync' }>['kill']>,
  target: Spawned,
  onKill: () => void,
): void {
  let seen = 0;
  const fire = () => {
    onKill();
    target.kill(kill.signal);
  };
  if (kill.moment === 'request') {
    world.emu.hooks.beforeAnswer = async () => {
      if (++seen !== kill.at) return;
      fire();
      // the request stays unanswered until the process is gone: it dies waiting for this answer
      await target.ended;
    };
  } else {
    world.emu.hooks.afterAnswer = () => {
      if (++seen === kill.at) fire();
    };
  }
}

function applyFault(world: World, fault: ServerFault): void {
  if (fault.kind === 'ignoreStart') {
    world.emu.options.ignoreStart = true;
    world.ignoredStart = true;
    return;
  }
  const where = fault.path === undefined ? {} : { path: fault.path };
  const faults: Record<Exclude<ServerFault['kind'], 'ignoreStart'>, () => Fault> = {
    // Retry-After 0: the retry comes at once, so a schedule waits on no backoff
    status500: () => ({ kind: 'status', status: 500, retryAfter: 0, times: fault.times, ...where }),
    truncate: () => ({
      kind: 'truncate',
      afterBytes: 'afterBytes' in fault ? fault.afterBytes : 0,
      times: fault.times,
      ...where,
    }),
    reset: () => ({
      kind: 'reset',
      afterBytes: 'afterBytes' in fault ? fault.afterBytes : 0,
      times: fault.times,
      ...where,
    }),
    partialLine: () => ({ kind: 'partialLine', times: fault.times, ...where }),
  };
  world.emu.options.faults = [faults[fault.kind]()];
}

/** Notes a run that ended as no sync may: a crash (exit 1), a status outside the contract, a hang. */
function check(world: World, what: string, end: RunEnd, terminated: boolean): void {
  if (end.signal === 'SIGKILL' && !end.stderr.startsWith('hung')) return;
  if (end.code !== null && (SYNC_STATUSES.has(end.code) || (terminated && end.code === SIGTERM_STATUS)))
    return;
  const line = firstLine(end.stderr);
  world.findings.push({
    signature: `during the schedule, ${what} ${outcome(end)}: ${signatureOf(line, world.dir)}`,
    detail: line,
  });
}

const outcome = (end: RunEnd): string => (end.code === null ? `killed by ${end.signal}` : `exit ${end.code}`);

/** The line of stderr that says what went wrong: mdget's own, else an error's (a crash), else the first. */
export function firstLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  return (
    lines.find((line) => line.startsWith('mdget:')) ??
    lines.find((line) => /^[A-Z]\w*Error\b[^:]*:/.test(line.trim())) ??
    lines[0] ??
    '(nothing on stderr)'
  );
}

/**
 * After a SIGKILL: the lock names PID 1, alive and no sync, as a PID the system reused since would (not
 * this process, which runs syncs of its own).
 */
function reuseLockPid(world: World): void {
  const lock = join(world.root, '.mdget', 'sync.lock');
  if (!existsSync(lock)) return;
  try {
    const holder = JSON.parse(readFileSync(lock, 'utf8')) as Record<string, unknown>;
    writeFileSync(lock, `${JSON.stringify({ ...holder, pid: 1 })}\n`);
  } catch {
    // a lock that is not JSON is no holder to rename
  }
}

const STRAYS = [
  'eod/IBM.csv',
  'minutes/IBM.csv',
  'events/IBM.csv',
  'ticks/ESM25/2025-01-06.csv.gz',
  'reference/notes.txt',
];

function damage(world: World, step: Extract<Step, { op: 'damage' }>): string {
  if (step.how === 'stray') {
    const path = STRAYS[Math.floor(step.pick * STRAYS.length)] as string;
    const bytes = Buffer.from(`a file of the user's, not mdget's\n`);
    mkdirSync(dirname(join(world.root, path)), { recursive: true });
    writeFileSync(join(world.root, path), bytes);
    world.strays.set(path, bytes);
    return `added ${path}`;
  }
  const files = dataFiles(world.root).filter((path) => !world.strays.has(path));
  if (files.length === 0) return 'nothing to damage';
  const path = files[Math.floor(step.pick * files.length)] as string;
  const full = join(world.root, path);
  const size = statSync(full).size;
  switch (step.how) {
    case 'delete':
      rmSync(full);
      return `deleted ${path}`;
    case 'truncate':
      truncateSync(full, Math.floor(step.at * size));
      return `truncated ${path} from ${size} to ${Math.floor(step.at * size)} bytes`;
    case 'flip': {
      if (size === 0) return `${path} is empty: nothing to flip`;
      const bytes = readFileSync(full);
      const at = Math.floor(step.at * size);
      bytes[at] = (bytes[at] ?? 0) ^ 0x01;
      writeFileSync(full, bytes);
      world.flipped.add(path);
      return `flipped byte ${at} of ${path}`;
    }
  }
}

function damageLedger(world: World, step: Extract<Step, { op: 'ledger' }>): string {
  const dir = join(world.root, '.mdget');
  const ledger = join(dir, 'ledger.sqlite');
  if (step.how === 'deleteDir') {
    rmSync(dir, { recursive: true, force: true });
    return 'removed .mdget';
  }
  if (!existsSync(ledger)) return 'no ledger yet';
  if (step.how === 'delete') {
    for (const name of readdirSync(dir)) if (name.startsWith('ledger.sqlite')) rmSync(join(dir, name));
    return 'deleted the ledger';
  }
  world.ledgerDamaged = true;
  const size = statSync(ledger).size;
  const at = Math.floor(step.at * size);
  if (step.how === 'truncate') {
    truncateSync(ledger, at);
    return `truncated the ledger from ${size} to ${at} bytes`;
  }
  const random = seeded(Math.floor(step.at * 2 ** 32));
  const bytes = readFileSync(ledger);
  for (let i = at; i < Math.min(size, at + 64); i++) bytes[i] = random.int(0, 255);
  writeFileSync(ledger, bytes);
  return `garbled 64 bytes of the ledger at ${at}`;
}

function writeLock(world: World, how: 'empty' | 'dead'): string {
  const dir = join(world.root, '.mdget');
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'sync.lock');
  if (how === 'empty') {
    writeFileSync(lock, '');
    return 'left an empty lock (a disk full when it was written)';
  }
  // a process that has ended: its PID names no one (until the system reuses it)
  const gone = spawnSync(process.execPath, ['-e', '0']).pid;
  writeFileSync(
    lock,
    `${JSON.stringify({ pid: gone, host: hostname(), since: world.clock.toISOString() })}\n`,
  );
  // and not refreshed for two hours: stale by its age too, whatever else a lock records of its holder
  const stale = new Date(Date.now() - 2 * 3_600_000);
  utimesSync(lock, stale, stale);
  return `left the lock of ended process ${gone}`;
}
