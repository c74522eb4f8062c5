import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchBytes } from '../helpers/cli-env.js';
import { BIN, nodePath, runShell, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A download to stdout writes the descriptor itself (writers/descriptor-writable.ts). These check the
// bytes where that path meets a real pipe, a reader that leaves, and a descriptor that would block.

const ticksUrl = (base: string) =>
  `${base}/queryticks.ashx?username=demo&password=demo&symbol=ESM25&start=20250313&end=20250314&order=asc`;

/**
 * Runs `command` with stdout on a FIFO made non-blocking once the child has started (libuv clears the flag
 * on a child's stdio as it starts it; a libuv handle opened on the parent's copy sets it again on the shared
 * file description), read from `delayMs` on.
 */
async function runOnNonBlockingFifo(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  delayMs: number,
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const fifo = join(tempDir(), 'out.fifo');
  execFileSync('mkfifo', [fifo]);
  const reader = new Socket({
    fd: openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK),
    writable: false,
  });
  reader.pause();
  const chunks: Buffer[] = [];
  reader.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(reader, 'end');
  const writeEnd = openSync(fifo, constants.O_WRONLY);
  const child = spawn(command, [...args], {
    cwd: tempDir(),
    env: { PATH: nodePath(), NO_COLOR: '1', ...env },
    stdio: ['ignore', writeEnd, 'pipe'],
  });
  await once(child, 'spawn');
  new Socket({ fd: writeEnd, readable: false }).destroy(); // sets O_NONBLOCK, then closes our copy
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  setTimeout(() => reader.resume(), delayMs);
  const [code] = (await once(child, 'close')) as [number | null];
  await ended;
  return { code, stdout: Buffer.concat(chunks), stderr };
}

describe.concurrent('stdout written through its descriptor', () => {
  it.skipIf(process.platform !== 'linux')(
    'a non-blocking stdout whose reader is late gets every byte: what would block goes through the stream',
    async () => {
      await withEmulator({ ticksPerDay: 600_000 }, async (emu) => {
        const expected = await fetchBytes(ticksUrl(emu.urls.historical));
        expect(expected.length).toBeGreaterThan(20_000_000); // more than the socket buffers hold
        const flags = await runOnNonBlockingFifo(
          'sh',
          ['-c', 'sleep 0.3; grep ^flags /proc/self/fdinfo/1'],
          {},
          0,
        );
        // O_NONBLOCK (04000) is on: the case under test, where writev gets EAGAIN
        expect(Number.parseInt(flags.stdout.toString().split(/\s+/)[1] ?? '0', 8) & 0o4000).toBe(0o4000);
        const run = await runOnNonBlockingFifo(
          BIN,
          ['ticks', 'ESM25', '--start', '2025-03-13', '--format', 'raw', '--max-rows', '100000000'],
          emu.env,
          400,
        );
        expect([run.code, run.stderr]).toEqual([0, '']);
        expect(run.stdout.equals(expected)).toBe(true);
      });
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'a dry run written at once to a non-blocking stdout whose reader is late: every line, in order',
    async () => {
      await withEmulator({}, async (emu) => {
        // 3,653 days: ~440 KB of URLs, far more than the FIFO's 64 KiB, so the direct writes meet EAGAIN
        const args = ['ticks', 'ESM25', '--start', '2015-01-01', '--end', '2025-01-01', '--dry-run'];
        const expected = execFileSync(BIN, [...args, '-q'], {
          env: { PATH: nodePath(), ...emu.env },
        }).toString();
        expect(expected.length).toBeGreaterThan(200_000);
        const run = await runOnNonBlockingFifo(BIN, args, emu.env, 400);
        expect(run.code).toBe(0);
        expect(run.stdout.toString() === expected).toBe(true);
        expect(run.stderr.split('\n').filter((line) => line.startsWith('mdget: ESM25 ')).length).toBe(3653);
      });
    },
  );

  it('through a pipe, the same bytes as the service sent; a reader that leaves early ends the run quietly', async () => {
    await withEmulator({ ticksPerDay: 300_000 }, async (emu) => {
      const expected = await fetchBytes(ticksUrl(emu.urls.historical));
      const download = '"$MDGET" ticks ESM25 --start 2025-03-13 --format raw --max-rows 100000000';
      const piped = await runShell(`${download} | cat | md5sum`, emu.env);
      const { createHash } = await import('node:crypto');
      expect(piped).toEqual({
        code: 0,
        stdout: `${createHash('md5').update(expected).digest('hex')}  -\n`,
        stderr: '',
      });
      expect(await runShell(`${download} | head -c 10`, emu.env)).toEqual({
        code: 0,
        stdout: expected.subarray(0, 10).toString(),
        stderr: '',
      });
    });
  });

  it('Ctrl-C while stdout writes are queued, then the reader leaves: exit 130, no crash, nothing on stderr', async () => {
    await withEmulator({ ticksPerDay: 600_000 }, async (emu) => {
      const child = spawn(
        BIN,
        ['ticks', 'ESM25', '--start', '2025-03-13', '--format', 'raw', '--max-rows', '100000000'],
        {
          cwd: tempDir(),
          env: { PATH: nodePath(), NO_COLOR: '1', ...emu.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      // Read the first bytes only: then the pipe fills and mdget's writes wait, queued.
      await once(child.stdout, 'data');
      child.stdout.pause();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.stdout.destroy(); // the reader goes: the queued writes fail with EPIPE
      const [code] = (await once(child, 'close')) as [number | null];
      expect([code, stderr]).toEqual([130, '']);
    });
  });
});
