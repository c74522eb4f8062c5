// The CLI as bin/mdget loads it: esbuild joins dist/cli/main.js and what it imports into one CommonJS file,
// dist/cli-bundle/main.cjs. Start-up: an ES module entry makes Node start its ES module loader,
// which `node -e 0` never does, and `import ... from 'node:fs'` builds a facade that reads every export of
// fs, loading Node's stream modules on a --help; a CommonJS file required by a CommonJS bin/mdget does
// neither (bench/README.md#start-up). Dependencies other than commander stay external and are loaded
// when a command needs them (chalk is an ES module: import() from CommonJS). So does the emulator, an ES
// module of dist/ that only `mdget emulator` loads. The bundle sits two levels below the package root, as
// dist/cli/main.js does, so the paths resolved from import.meta.url (package.json) stay right. The library
// (dist/index.js) is not bundled.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { lazyChildProcessForCommander } from './esbuild-plugins.js';

const root = new URL('..', import.meta.url);
const { dependencies, version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => name !== 'commander')
  .flatMap((name) => [name, `${name}/*`]);
const outdir = new URL('dist/cli-bundle', root).pathname;

/** `mdget emulator` imports dist/emulator/index.js, an ES module left as it is (path from the bundle). */
const emulatorStaysOut = {
  name: 'emulator-stays-out',
  setup(build) {
    build.onResolve({ filter: /[\\/]emulator[\\/]index\.js$/ }, () => ({
      path: '../emulator/index.js',
      external: true,
    }));
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [new URL('dist/cli/main.js', root).pathname],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: `${outdir}/main.cjs`,
  external,
  // A CommonJS file has no import.meta: the sources' import.meta.url becomes the bundle's own URL.
  banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  // The version, as the single binary has it: no package.json to read at start-up.
  define: { 'import.meta.url': '__import_meta_url', __MDGET_VERSION__: JSON.stringify(version) },
  // Less for V8 to scan at start-up; names stay, for readable stacks.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [lazyChildProcessForCommander, emulatorStaysOut],
  logLevel: 'warning',
});
