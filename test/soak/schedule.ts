/**
 * A schedule: what happens to one dataset between its first sync and the final check, as plain data made
 * from a seed (the way SQLite's crash tests and Jepsen's generators work). The same seed gives the same
 * steps anywhere; executing them is steps.ts's, judging the result oracle.ts's (docs/testing.md).
 */
import { type Random, seeded } from './random.js';

/** A fault of the service for the length of one sync (emulator switches). */
export type ServerFault =
  | { kind: 'status500'; times: number; path?: string }
  | { kind: 'truncate' | 'reset'; afterBytes: number; times: number; path?: string }
  | { kind: 'partialLine'; times: number; path?: string }
  | { kind: 'ignoreStart' };

/** A signal sent to a sync when the emulator gets its `at`-th request: before answering it, or after. */
export interface Kill {
  signal: 'SIGKILL' | 'SIGTERM';
  at: number;
  moment: 'request' | 'answer';
  /** After a SIGKILL, the lock left behind names a live process that is not mdget: a reused PID. */
  reusePid: boolean;
}

/** One step of a schedule. */
export type Step =
  | { op: 'clock'; hours: number }
  | {
      op: 'sync';
      concurrency: number;
      retries: number;
      server?: ServerFault;
      kill?: Kill;
      /** The disk left with this many KiB free for the length of the sync (a small tmpfs). */
      diskFreeKiB?: number;
      /** A second sync started at the same moment: the same command, or a shard of the same root. */
      second?: 'same' | 'shard';
    }
  | { op: 'damage'; how: 'flip' | 'truncate' | 'delete' | 'stray'; pick: number; at: number }
  | { op: 'ledger'; how: 'delete' | 'deleteDir' | 'truncate' | 'garble'; at: number }
  | { op: 'lock'; how: 'empty' | 'dead' };

/** A schedule: its seed, the clock it starts at, and its steps. */
export interface Schedule {
  seed: number;
  start: string;
  steps: Step[];
}

/** The endpoints a server fault may be limited to (none: every request). */
const FAULT_PATHS = [
  'queryticks.ashx',
  'queryminutes.ashx',
  'queryeod.ashx',
  'queryevents.ashx',
  'exchanges.php',
];

/** How long schedules are: `steps` at most (at least 2). */
export interface ScheduleShape {
  maxSteps: number;
}

/** The schedule of `seed`. */
export function generateSchedule(seed: number, shape: ScheduleShape = { maxSteps: 6 }): Schedule {
  const random = seeded(seed);
  // the first sync starts on Wednesday 2025-03-12 (UTC), on the half hour: after every series' start
  // day in its market's zone, so that the dataset file is valid whatever the hour
  const start = new Date(Date.UTC(2025, 2, 12) + random.int(0, 47) * 30 * 60_000).toISOString();
  // A file damaged while no ledger row records it (lost with the ledger) cannot be told from a good one:
  // schedules that lose their ledger damage files only by deleting them, or beside them.
  const losesLedger = random.chance(0.3);
  const count = random.int(2, Math.max(2, shape.maxSteps));
  const steps: Step[] = [];
  for (let i = 0; i < count; i++) steps.push(stepOf(random, losesLedger));
  if (!steps.some((s) => s.op === 'sync')) steps[0] = syncStep(random);
  if (!steps.some((s) => s.op === 'clock')) steps.splice(random.int(0, steps.length), 0, clockStep(random));
  return { seed, start, steps };
}

function stepOf(random: Random, losesLedger: boolean): Step {
  const roll = random.next();
  if (roll < 0.45) return syncStep(random);
  if (roll < 0.65) return clockStep(random);
  if (roll < 0.83) {
    const how = losesLedger
      ? random.pick(['delete', 'stray'] as const)
      : random.pick(['flip', 'truncate', 'delete', 'stray'] as const);
    return { op: 'damage', how, pick: random.next(), at: random.next() };
  }
  if (roll < 0.93 && losesLedger)
    return {
      op: 'ledger',
      how: random.pick(['delete', 'deleteDir', 'truncate', 'garble'] as const),
      at: random.next(),
    };
  return { op: 'lock', how: random.pick(['empty', 'dead'] as const) };
}

function clockStep(random: Random): Step {
  return { op: 'clock', hours: random.pick([1, 3, 6, 12, 20, 24, 30, 48]) };
}

function syncStep(random: Random): Step {
  const step: Extract<Step, { op: 'sync' }> = {
    op: 'sync',
    concurrency: random.pick([1, 2, 4]),
    retries: random.pick([0, 1, 2]),
  };
  if (random.chance(0.3)) step.server = serverFault(random);
  if (random.chance(0.35)) {
    const signal = random.chance(0.6) ? 'SIGKILL' : 'SIGTERM';
    step.kill = {
      signal,
      at: random.int(1, 8),
      moment: random.pick(['request', 'answer'] as const),
      reusePid: signal === 'SIGKILL' && random.chance(0.3),
    };
  }
  if (random.chance(0.12)) step.diskFreeKiB = random.pick([0, 8, 64, 256]);
  if (random.chance(0.1)) step.second = random.chance(0.7) ? 'same' : 'shard';
  return step;
}

function serverFault(random: Random): ServerFault {
  const path = random.chance(0.5) ? random.pick(FAULT_PATHS) : undefined;
  const where = path === undefined ? {} : { path };
  switch (random.pick(['status500', 'truncate', 'reset', 'partialLine', 'ignoreStart'] as const)) {
    case 'status500':
      return { kind: 'status500', times: random.int(1, 3), ...where };
    case 'truncate':
      return { kind: 'truncate', afterBytes: random.int(100, 8000), times: random.int(1, 2), ...where };
    case 'reset':
      return { kind: 'reset', afterBytes: random.int(100, 8000), times: random.int(1, 2), ...where };
    case 'partialLine':
      return { kind: 'partialLine', times: 1, ...where };
    case 'ignoreStart':
      return { kind: 'ignoreStart' };
  }
}

/** What `--without` may leave out of a schedule: a kind of step, or a kind of fault of a sync. */
export const LEAVE_OUT = [
  'damage',
  'ledger',
  'lock',
  'kill',
  'server',
  'ignoreStart',
  'disk',
  'second',
] as const;
export type LeaveOut = (typeof LEAVE_OUT)[number];

/**
 * `schedule` without the steps and faults of `kinds`: a soak that looks past the bugs already known.
 * The seed still names the same draws, so `--seed S --without …` replays the same schedule.
 */
export function without(schedule: Schedule, kinds: ReadonlySet<LeaveOut>): Schedule {
  const keys = { kill: 'kill', server: 'server', disk: 'diskFreeKiB', second: 'second' } as const;
  const steps = schedule.steps.flatMap((step): Step[] => {
    if (step.op !== 'sync') return kinds.has(step.op as LeaveOut) ? [] : [step];
    const kept: Step = { ...step };
    for (const [kind, key] of Object.entries(keys)) if (kinds.has(kind as LeaveOut)) delete kept[key];
    if (kinds.has('ignoreStart') && kept.server?.kind === 'ignoreStart') delete kept.server;
    // a lock naming a reused PID is a lock fault too
    if (kinds.has('lock') && kept.kill) kept.kill = { ...kept.kill, reusePid: false };
    return [kept];
  });
  return { ...schedule, steps };
}

/** One line saying what a step does, for failure reports. */
export function describeStep(step: Step): string {
  switch (step.op) {
    case 'clock':
      return `clock +${step.hours}h`;
    case 'sync': {
      const parts = [`sync --concurrency ${step.concurrency} --retries ${step.retries}`];
      if (step.server) parts.push(`server ${JSON.stringify(step.server)}`);
      if (step.kill)
        parts.push(
          `${step.kill.signal} at ${step.kill.moment} ${step.kill.at}${step.kill.reusePid ? ', lock PID reused' : ''}`,
        );
      if (step.diskFreeKiB !== undefined) parts.push(`disk ${step.diskFreeKiB} KiB free`);
      if (step.second) parts.push(`second sync at once (${step.second})`);
      return parts.join('; ');
    }
    case 'damage':
      return `damage: ${step.how} (pick ${step.pick.toFixed(3)}, at ${step.at.toFixed(3)})`;
    case 'ledger':
      return `ledger: ${step.how}`;
    case 'lock':
      return `lock: ${step.how}`;
  }
}
