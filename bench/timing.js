// What the benches share: whole processes timed by GNU time, shell quoting, medians.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A string as one single-quoted shell word. */
export const q = (s) => `'${s.replaceAll("'", "'\\''")}'`;

/** The middle value (the lower one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * A timer whose GNU time writes its figures into `dir`: it runs one shell line (pipefail) and resolves with
 * wall seconds, CPU seconds (user + system) and peak RSS (MiB) of the command; a failing line throws.
 */
export function timer(dir) {
  if (!existsSync('/usr/bin/time')) throw new Error('the benches need GNU time at /usr/bin/time');
  const marker = join(dir, 'time.txt');
  return async function timed(line, env = {}) {
    const child = spawn(
      'bash',
      [
        '--norc',
        '--noprofile',
        '-o',
        'pipefail',
        '-c',
        `/usr/bin/time -o ${marker} -f '%e %U %S %M' ${line}`,
      ],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const status = await new Promise((resolve) => child.on('close', resolve));
    if (status !== 0) throw new Error(`failed (${status}): ${line}\n${stderr}`);
    const [wall, user, sys, rss] = readFileSync(marker, 'utf8')
      .trim()
      .split('\n')
      .at(-1)
      .split(/\s+/)
      .map(Number);
    return { seconds: wall, cpu: user + sys, rssMiB: rss / 1024 };
  };
}
