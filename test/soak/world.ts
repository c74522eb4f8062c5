/**
 * The world of one schedule: an emulator in this process, a dataset folder (on a small tmpfs of its own
 * when the machine lets us mount one, so a full disk is a real one), the clock both sides read, and what
 * the steps did that the final check must know.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { DEBUG_ENV } from '../helpers/with-emulator.js';

/** The dataset of every schedule: days of ticks, minutes and EOD files that grow, events, and a list. */
export const DATASET_TOML = `root = "data"

[[series]]
name = "ticks"
kind = "ticks"
symbols = ["ESM25"]
start = "2025-03-11"
path = "ticks/{symbol}/{date}.csv.gz"
tz = "UTC"

[[series]]
name = "minutes"
kind = "minutes"
symbols = ["AAPL", "MSFT"]
start = "2025-03-11"
path = "minutes/{symbol}.csv"

[[series]]
name = "eod"
kind = "eod"
symbols = ["AAPL", "MSFT"]
start = "2025-01-02"
path = "eod/{symbol}.csv"

[[series]]
name = "events"
kind = "events"
symbols = ["AAPL", "MSFT"]
start = "2024-01-01"
path = "events/{symbol}.csv"

[reference]
exchanges = "reference/exchanges.csv"
`;

/** What the final check must know of a schedule's steps, and what broke a rule on the way. */
export interface World {
  emu: Emulator;
  /** The folder of mdget.toml; the dataset's root is `root`. */
  dir: string;
  root: string;
  clock: Date;
  /** A tmpfs is mounted on `dir`: the disk can be filled. */
  mounted: boolean;
  /** Files a step put beside the dataset, with their bytes: mdget must leave them alone. */
  strays: Map<string, Buffer>;
  /** Files a step changed in place, keeping their size. */
  flipped: Set<string>;
  /** The ledger was damaged (not only deleted). */
  ledgerDamaged: boolean;
  /** The server ignored `start` during a step. */
  ignoredStart: boolean;
  /** What each step did, one line each. */
  log: string[];
  /** Rules broken during the steps (the final check adds its own). */
  findings: Finding[];
}

/** One thing wrong: `signature` classifies it (the same bug, the same signature), `detail` shows it. */
export interface Finding {
  signature: string;
  detail: string;
}

const TMPFS_SIZE = '16m';
/** A tenth of the emulator's usual tick density: a schedule is many syncs, each should take little. */
const TICKS_PER_DAY = 400;
let mountable: boolean | undefined;

/** True when this process may mount a tmpfs (root on Linux); asked once. */
export function canMountTmpfs(): boolean {
  if (mountable !== undefined) return mountable;
  const probe = mkdtempSync(join(tmpdir(), 'mdget-soak-probe-'));
  mountable = mount(probe);
  if (mountable) unmount(probe);
  rmSync(probe, { recursive: true, force: true });
  return mountable;
}

/** The tmpfs mounts of this process: unmounted when it exits, even cut short by an uncaught error. */
const mounts = new Set<string>();
let unmountsAtExit = false;

const mount = (dir: string): boolean =>
  process.platform === 'linux' &&
  spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', dir], { stdio: 'ignore' })
    .status === 0;
const unmount = (dir: string): void => {
  spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
  mounts.delete(dir);
};

/** A fresh world at `start`: emulator started, dataset file written, tmpfs mounted if `useTmpfs`. */
export async function openWorld(start: string, useTmpfs: boolean): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'mdget-soak-'));
  const mounted = useTmpfs && canMountTmpfs() && mount(dir);
  if (mounted) {
    mounts.add(dir);
    if (!unmountsAtExit) {
      unmountsAtExit = true;
      process.once('exit', () => {
        for (const mounted of mounts) unmount(mounted);
      });
    }
  }
  writeFileSync(join(dir, 'mdget.toml'), DATASET_TOML);
  const clock = new Date(start);
  const emu = await startEmulator({ host: '127.0.0.1', port: 0, now: clock, ticksPerDay: TICKS_PER_DAY });
  return {
    emu,
    dir,
    root: join(dir, 'data'),
    clock,
    mounted,
    strays: new Map(),
    flipped: new Set(),
    ledgerDamaged: false,
    ignoredStart: false,
    log: [],
    findings: [],
  };
}

/** Stops the emulator and removes the folder (and its tmpfs). */
export async function closeWorld(world: World): Promise<void> {
  await world.emu.close();
  if (world.mounted) unmount(world.dir);
  rmSync(world.dir, { recursive: true, force: true });
}

/** The environment of every mdget the world runs: the emulator, the clock, no probes for silent caps. */
export function envOf(world: World): Record<string, string> {
  return { ...world.emu.env, ...DEBUG_ENV, MDGET_MAX_ROWS: '1000000', MDGET_NOW: world.clock.toISOString() };
}

/** Sets the clock of mdget and the emulator alike. */
export function setClock(world: World, clock: Date): void {
  world.clock = clock;
  world.emu.options.now = clock;
}

const FILLER = '.soak-filler';

/** Fills the tmpfs until `freeKiB` are left; false when there is no tmpfs to fill. */
export function fillDisk(world: World, freeKiB: number): boolean {
  if (!world.mounted) return false;
  mkdirSync(world.root, { recursive: true });
  const { bavail, bsize } = statfsSync(world.dir);
  const size = Math.max(0, bavail * bsize - freeKiB * 1024);
  try {
    writeFileSync(join(world.dir, FILLER), Buffer.alloc(size));
  } catch (error) {
    // the last pages may not fit (tmpfs counts whole pages): the disk is full, which is the point
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  }
  return true;
}

/** Frees what fillDisk took. */
export function freeDisk(world: World): void {
  rmSync(join(world.dir, FILLER), { force: true });
}
