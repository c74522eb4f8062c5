// A pinned Node release from the npm registry: `node scripts/node-release.js 26` prints the path of its
// `node`. These machines reach package registries only, so Node comes from the registry package that
// ships its official builds (node-<platform>-<arch>, with bin/node inside), never from a download site. It
// lands in a per-user cache folder (MDGET_NODE_CACHE, else $XDG_CACHE_HOME/mdget, else ~/.cache/mdget),
// outside node_modules, which `npm ci` wipes. Used by .ci/run (the suite on the newest Node), the single
// binary (Node 24 LTS) and the benches.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The pinned releases: the newest of each line on the registry when they were last raised. */
export const NODE_RELEASES = { 24: '24.21.0', 26: '26.12.1' };

/** The LTS line the single binary is built on. */
export const LTS_MAJOR = 24;

/** Where the pinned Node of `major` is (or will be) unpacked. */
export function nodeReleaseDir(major, env = process.env) {
  const cache = env.MDGET_NODE_CACHE ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mdget');
  return join(cache, `node-${process.platform}-${process.arch}-${versionOf(major)}`);
}

function versionOf(major) {
  const version = NODE_RELEASES[major];
  if (!version)
    throw new Error(`no pinned Node ${major}: pick one of ${Object.keys(NODE_RELEASES).join(', ')}`);
  return version;
}

/** The path of the pinned Node `major`'s `node`, fetched with `npm pack` and unpacked on first use. */
export function nodeRelease(major = LTS_MAJOR, env = process.env) {
  const dir = nodeReleaseDir(major, env);
  const node = join(dir, 'bin', 'node');
  if (existsSync(node)) return node;
  if (process.platform === 'win32') {
    throw new Error('fetching Node from the registry is implemented for Linux and macOS only');
  }
  const parent = join(dir, '..');
  mkdirSync(parent, { recursive: true });
  // Unpacked beside its final name and renamed: a concurrent or interrupted fetch never leaves half a Node.
  const work = mkdtempSync(join(parent, '.fetch-'));
  try {
    const spec = `node-${process.platform}-${process.arch}@${versionOf(major)}`;
    // npm checks the tarball against the registry's integrity hash; --json names the file it wrote.
    let packed;
    try {
      packed = JSON.parse(
        execFileSync('npm', ['pack', spec, '--json', '--pack-destination', work], {
          cwd: work,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
    } catch (error) {
      // npm's own report runs to a dozen lines: keep the one that says what went wrong.
      const lines = String(error.stderr ?? '').split('\n');
      const reason =
        lines.find((line) => /^npm error [A-Z]\w*Error|^npm error 404/.test(line)) ??
        lines.find((line) => line.startsWith('npm error'));
      throw new Error(`npm pack ${spec} failed: ${reason?.slice('npm error '.length) ?? error.message}`, {
        cause: error,
      });
    }
    execFileSync('tar', [
      '-xzf',
      join(work, packed[0].filename),
      '-C',
      work,
      'package/bin/node',
      'package/LICENSE',
    ]);
    try {
      renameSync(join(work, 'package'), dir);
    } catch (error) {
      if (!existsSync(node)) throw error; // else another process got there first
    }
    return node;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(nodeRelease(Number(process.argv[2] ?? LTS_MAJOR)));
  } catch (error) {
    console.error(`node-release: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
