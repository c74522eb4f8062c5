import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DEBUG_ENV } from './with-emulator.js';

/** The built CLI (npm test builds first), run as a real child process. */
export const BIN = fileURLToPath(new URL('../../bin/mdget', import.meta.url));

/** A password no output may ever contain (URL-safe, so its raw and encoded forms are one string). */
export const CANARY = 'Canary7pw9Zq';

export interface CliRun {
  code: number;
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
}

const made: string[] = [];

/** A fresh temporary directory for a test's files, removed when its test file ends (removeTempDirs). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdget-test-'));
  made.push(dir);
  return dir;
}

/** Removes the directories tempDir made: a suite run leaves nothing behind in the system's temp dir. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs `mdget args` with exactly `env` (plus PATH), in `cwd`, feeding `input` to stdin. Every run's
 * stdout and stderr are checked for the canary password by the suites that use it.
 */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    // Run the file itself, as a user does: its shebang decides how node is started.
    const child = spawn(BIN, [...args], {
      cwd: options.cwd ?? tempDir(),
      env: { PATH: nodePath(), NO_COLOR: '1', ...DEBUG_ENV, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: stdoutBytes.toString('utf8'),
        stdoutBytes,
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Runs one bash line (pipefail) with `env` (plus PATH, and $MDGET naming the built CLI), as a user types it
 * with pipes and redirections: its exit status (128 when killed), stdout and stderr.
 */
export function runShell(
  line: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['--norc', '--noprofile', '-o', 'pipefail', '-c', line],
      { env: { PATH: nodePath(), MDGET: BIN, NO_COLOR: '1', ...DEBUG_ENV, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 128) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** PATH with this test's node first, so the shebang finds the same node. */
export function nodePath(): string {
  return `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
}

/**
 * Runs `mdget args` in this process through `main(argv, io)`, with the same inputs and result as
 * `runCli`: what only a process shows (signals, exit statuses, EPIPE, a terminal, the bin) needs
 * `runCli`; everything else runs here, without a process start per call.
 */
export async function runMain(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Promise<CliRun> {
  const { main } = await import('../../src/cli/main.js');
  const { NO_COLORS } = await import('../../src/cli/io.js');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const cwd = options.cwd ?? tempDir();
  // Relative paths (-o, --report, --symbols-file) resolve against the process's directory, as in a real
  // process: a run given a cwd moves there, and runs at once (describe.concurrent) must then share it.
  if (options.cwd === undefined) return await collect();
  if (inProcessRuns > 0 && process.cwd() !== cwd) throw new Error('runMain: runs at once need one cwd');
  const before = process.cwd();
  process.chdir(cwd);
  inProcessRuns++;
  try {
    return await collect();
  } finally {
    inProcessRuns--;
    if (inProcessRuns === 0) process.chdir(before);
  }
  async function collect(): Promise<CliRun> {
    const code = await main([...args], {
      stdout,
      stderr,
      stdin,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env: { PATH: nodePath(), NO_COLOR: '1', ...DEBUG_ENV, ...options.env },
      cwd,
      color: NO_COLORS,
    });
    // Let the last writes reach the collectors before they are read.
    await new Promise((resolve) => setImmediate(resolve));
    const stdoutBytes = Buffer.concat(out);
    return {
      code,
      stdout: stdoutBytes.toString('utf8'),
      stdoutBytes,
      stderr: Buffer.concat(err).toString('utf8'),
    };
  }
}

/** How many runMain calls are under way in this process (they share its working directory). */
let inProcessRuns = 0;
