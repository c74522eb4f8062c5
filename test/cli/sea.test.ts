import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LTS_MAJOR, NODE_RELEASES, nodeRelease } from '../../scripts/node-release.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { openDb } from '../helpers/sqlite.js';

const execFileAsync = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `bin args` in `cwd` with exactly `env`, never throwing on a non-zero exit. */
async function run(bin: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileAsync(bin, args, { cwd, env, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Starts `bin emulator` and resolves with its .env lines once it has printed all of them. */
function startEmulator(bin: string, cwd: string, env: Record<string, string>) {
  const child = spawn(bin, ['emulator'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (/^MDGET_INSTRUMENTS_URL=.*\n/m.test(out)) resolve(out);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      reject(new Error(`emulator exited with ${code} before printing its settings`)),
    );
  });
  return { child, lines };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('close', resolve);
  });

/** Every table's schema, every value with its type (quote() keeps them apart), and the user_version. */
function dump(path: string): string[] {
  const db = openDb(path);
  try {
    const lines = db
      .prepare("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name")
      .pluck()
      .all() as string[];
    lines.push(`user_version ${db.prepare('PRAGMA user_version').pluck().get()}`);
    for (const table of ['instruments', 'symbols', 'spread_legs']) {
      const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
      const row = columns.map((c) => `quote(${c.name})`).join(" || '|' || ");
      lines.push(...(db.prepare(`SELECT ${row} FROM ${table} ORDER BY rowid`).pluck().all() as string[]));
    }
    return lines;
  } finally {
    db.close();
  }
}

describe('single executable (npm run sea)', () => {
  it('is Node 24 LTS and runs every command with no Node and no node_modules around it', {
    timeout: 120_000,
  }, async (context) => {
    try {
      nodeRelease(LTS_MAJOR);
    } catch (error) {
      // The one reason to skip: the registry package of Node 24 could not be installed.
      const reason = `Node ${NODE_RELEASES[LTS_MAJOR]} could not be installed from the registry: ${(error as Error).message}`;
      console.warn(`single executable test skipped: ${reason}`);
      context.skip(reason);
      return;
    }
    await execFileAsync(process.execPath, ['scripts/build-sea.js'], { cwd: root, timeout: 90_000 });

    // The target: a directory with the binary alone, no node_modules above it, no node on PATH.
    const target = tempDir();
    for (let dir = target; dir !== dirname(dir); dir = dirname(dir)) {
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    }
    const bin = join(target, 'mdget');
    copyFileSync(join(root, 'build/mdget'), bin);
    const emptyPath = join(target, 'empty-path');
    mkdirSync(emptyPath);
    const env = { PATH: emptyPath, NO_COLOR: '1' };
    const work = join(target, 'work');
    mkdirSync(work);

    expect(await run(bin, ['--version'], work, env)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await run(bin, ['--help'], work, env);
    expect([help.code, help.stdout]).toEqual([
      0,
      expect.stringMatching(/^Usage: mdget \[options\] \[command\]\n/),
    ]);

    const emulator = startEmulator(bin, work, env);
    try {
      const settings = await emulator.lines;
      writeFileSync(join(work, 'emu.env'), settings, { mode: 0o600 }); // it holds the password
      const emuEnv = Object.fromEntries(
        settings
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );

      // Node reads no --env-file of its own in a single executable: the flag reaches mdget's dotenv reader.
      const config = await run(bin, ['config', '--env-file', 'emu.env', '--verbose'], work, env);
      expect(config.code).toBe(0);
      expect(config.stdout).toMatch(
        /^MDGET_INSTRUMENTS_URL +http:\/\/127\.0\.0\.1:\d+\/instruments +dotenv /m,
      );
      expect(config.stderr).toBe(
        `mdget: Node v${NODE_RELEASES[LTS_MAJOR]} (single executable), SQLite through node:sqlite\n`,
      );

      const ticksArgs = ['ticks', 'ESM25', '--start', '2025-03-13', '--maxrecords', '50'];
      const ticks = await run(bin, [...ticksArgs, '-o', 'ticks.csv', '--env-file', 'emu.env'], work, env);
      expect([ticks.code, ticks.stderr]).toEqual([0, '']);
      // The npm install of mdget, on the Node running this test, writes the same bytes.
      const reference = await runCli([...ticksArgs], { env: emuEnv });
      expect(reference.code).toBe(0);
      expect(readFileSync(join(work, 'ticks.csv'), 'utf8')).toBe(reference.stdout);
      expect(reference.stdout.split('\n')).toHaveLength(52);

      const sqlite = await run(bin, ['instruments', 'CME', '--format', 'sqlite', '-o', 'cme.db'], work, {
        ...env,
        ...emuEnv,
      });
      expect([sqlite.code, sqlite.stderr]).toEqual([0, '']);
      // Same tables, keys, indexes and values as the npm install writes (better-sqlite3 on Node 20).
      const npmDir = tempDir();
      const npmRun = await runCli(['instruments', 'CME', '--format', 'sqlite', '-o', 'cme.db'], {
        env: emuEnv,
        cwd: npmDir,
      });
      expect(npmRun.code).toBe(0);
      const binaryDump = dump(join(work, 'cme.db'));
      expect(binaryDump.length).toBeGreaterThan(10);
      expect(binaryDump).toEqual(dump(join(npmDir, 'cme.db')));
    } finally {
      emulator.child.kill('SIGINT');
    }
    expect([0, 130]).toContain(await exited(emulator.child));
  });
});
