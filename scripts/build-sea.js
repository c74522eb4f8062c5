// npm run sea: a single-file executable with Node's own single-executable-application support.
// pkg needs to download its base binaries, which this project's machines cannot; SEA needs nothing but
// the running node binary: esbuild bundles the CLI into one CommonJS file, node turns it into a blob, and
// postject injects the blob into a copy of node. Output: build/mdget (this platform and Node version).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}build`;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  stdin: {
    contents:
      "const { main } = require('./dist/cli/main.js');\nmain(process.argv.slice(2)).then((code) => { process.exitCode = code; });\n",
    resolveDir: root,
    loader: 'js',
  },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: `${out}/mdget.cjs`,
  // A native addon cannot live inside the blob: --format sqlite needs the npm install (README).
  alias: { 'better-sqlite3': './scripts/sea-no-sqlite.cjs' },
  define: { __MDGET_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});

// Paths relative to the project root, so nothing generated names a directory of this machine.
writeFileSync(
  `${out}/sea-config.json`,
  JSON.stringify({
    main: 'build/mdget.cjs',
    output: 'build/sea-prep.blob',
    disableExperimentalSEAWarning: true,
  }),
);
execFileSync(process.execPath, ['--experimental-sea-config', 'build/sea-config.json'], {
  stdio: 'inherit',
  cwd: root,
});
copyFileSync(process.execPath, `${out}/mdget`);
chmodSync(`${out}/mdget`, 0o755);
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
  { stdio: 'inherit' },
);
console.log(`built ${out}/mdget (single executable, Node ${process.versions.node})`);
