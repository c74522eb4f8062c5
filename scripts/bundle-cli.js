// The CLI as bin/mdget loads it: esbuild joins dist/cli/main.js and what it imports into a few ES modules,
// commands still split into chunks loaded on demand. Start-up (issue 9): Node's ES module loader reads and
// links every file on its own, ~40 of them for a --dry-run, and commander is CommonJS; one bundle halves
// that work. Dependencies other than commander stay external: they load lazily and keep their own files.
// The bundle sits two levels below the package root, as dist/cli/main.js does, so the paths main.js
// resolves from import.meta.url (package.json) stay right. The library (dist/index.js) is not bundled.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const { dependencies } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => name !== 'commander')
  .flatMap((name) => [name, `${name}/*`]);
const outdir = new URL('dist/cli-bundle', root).pathname;

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [new URL('dist/cli/main.js', root).pathname],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir,
  external,
  // commander's CommonJS requires Node built-ins; an ES module has no `require` of its own
  banner: {
    js: "import { createRequire as mdgetRequire } from 'node:module';\nconst require = mdgetRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
