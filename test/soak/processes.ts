/**
 * mdget as the steps run it: in this process (runMain) when nothing but its result matters, as a real
 * process (the built bin) when a signal must reach it or a second sync must run beside it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BIN, type CliRun, nodePath, runMain } from '../helpers/run-cli.js';
import { envOf, type World } from './world.js';

/** How a run ended: its status, or the signal that ended it. */
export interface RunEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** A real mdget process: signal it, and await its end. */
export interface Spawned {
  kill(signal: NodeJS.Signals): void;
  ended: Promise<RunEnd>;
}

/** A run that has not ended this long after it started has hung: a finding, and it is killed. */
const HUNG_MS = 90_000;

/** Starts `mdget args` as a process in the world's folder. */
export function spawnMdget(world: World, args: readonly string[]): Spawned {
  const child = spawn(BIN, [...args], {
    cwd: world.dir,
    env: { PATH: nodePath(), NO_COLOR: '1', ...envOf(world) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const err: Buffer[] = [];
  child.stderr.on('data', (c: Buffer) => err.push(c));
  let hung = false;
  const watchdog = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, HUNG_MS);
  const ended = new Promise<RunEnd>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      const stderr = Buffer.concat(err).toString('utf8');
      resolve({ code, signal, stderr: hung ? `hung: killed after ${HUNG_MS} ms\n${stderr}` : stderr });
    });
  });
  return {
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    ended,
  };
}

/**
 * Runs `mdget args` in this process on the world's dataset file, at the world's clock. The file is
 * named, not found in a working directory: runs in this process share one, and schedules run at once.
 */
export function runHere(world: World, args: readonly string[]): Promise<CliRun> {
  return runMain([...args, join(world.dir, 'mdget.toml')], { env: envOf(world) });
}
