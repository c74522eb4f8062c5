// npm run sea: build/mdget, one file holding Node 24 LTS and mdget, made with Node's own
// single-executable-application support. pkg is not used: it downloads base binaries that these machines
// cannot reach, and so does its maintained fork. esbuild bundles the CLI into one CommonJS file; the pinned
// Node 24 (scripts/node-release.js) turns it into a blob; postject injects the blob into a copy of that node.
// SQLite is Node's own node:sqlite (src/core/reference/sqlite-backend.ts), so the file needs no
// node_modules. `--startup=code-cache|plain|snapshot` picks how start-up work is saved; code-cache is the
// default because it measured fastest (bench/sea.js): a user-land V8 snapshot costs Node 24 more to
// deserialize than it saves.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { lazyChildProcessForCommander } from './esbuild-plugins.js';
import { LTS_MAJOR, nodeRelease } from './node-release.js';

/** The ways `buildSea` can prepare start-up. */
export const STARTUPS = ['code-cache', 'plain', 'snapshot'];

const RUN_MAIN =
  "const { main } = require('./dist/cli/main.js');\nconst run = () => main(process.argv.slice(2)).then((code) => { process.exitCode = code; });\n";
const ENTRY = {
  plain: `${RUN_MAIN}run();\n`,
  'code-cache': `${RUN_MAIN}run();\n`,
  // The snapshot holds the heap after the bundle's top level ran at build time; main() runs at start-up.
  snapshot: `${RUN_MAIN}require('node:v8').startupSnapshot.setDeserializeMainFunction(run);\n`,
};

/** Builds `<root>/build/mdget` with the Node at `node` (default: the pinned Node 24); returns its path. */
export async function buildSea({ node = nodeRelease(LTS_MAJOR), startup = 'code-cache' } = {}) {
  if (!STARTUPS.includes(startup)) throw new Error(`--startup must be one of ${STARTUPS.join(', ')}`);
  const root = fileURLToPath(new URL('..', import.meta.url));
  const out = `${root}build`;
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  await build({
    stdin: { contents: ENTRY[startup], resolveDir: root, loader: 'js' },
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    outfile: `${out}/mdget.cjs`,
    // A CommonJS bundle has no import.meta: the ESM sources' import.meta.url becomes the binary's own URL.
    banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
    define: { __MDGET_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__import_meta_url' },
    // Less for V8 to scan at start-up (~10 ms of --help, bench/sea.js); names stay, for readable stacks.
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [lazyChildProcessForCommander],
    logLevel: 'warning',
  });

  // Paths relative to the project root, so nothing generated names a directory of this machine.
  writeFileSync(
    `${out}/sea-config.json`,
    JSON.stringify({
      main: 'build/mdget.cjs',
      output: 'build/sea-prep.blob',
      disableExperimentalSEAWarning: true,
      useCodeCache: startup === 'code-cache',
      useSnapshot: startup === 'snapshot',
    }),
  );
  execFileSync(node, ['--experimental-sea-config', 'build/sea-config.json'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  copyFileSync(node, `${out}/mdget`);
  chmodSync(`${out}/mdget`, 0o755);
  // postject's LIEF warns about .note sections it cannot name; harmless, so its output is dropped.
  execFileSync(
    process.execPath,
    [
      `${root}node_modules/postject/dist/cli.js`,
      `${out}/mdget`,
      'NODE_SEA_BLOB',
      `${out}/sea-prep.blob`,
      '--sentinel-fuse',
      'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ],
    { stdio: 'ignore' },
  );
  rmSync(`${out}/sea-prep.blob`);
  return `${out}/mdget`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const startup = process.argv.find((arg) => arg.startsWith('--startup='))?.slice('--startup='.length);
  const node = nodeRelease(LTS_MAJOR);
  const bin = await buildSea({ node, startup });
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`built ${bin} (single executable, Node ${version}, start-up: ${startup ?? 'code-cache'})`);
}
