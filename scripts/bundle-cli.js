// The CLI as bin/mdget loads it: esbuild joins dist/cli/main.js and what it imports into one CommonJS file,
// dist/cli-bundle/main.cjs. Start-up: an ES module entry makes Node start its ES module loader,
// which `node -e 0` never does, and `import ... from 'node:fs'` builds a facade that reads every export of
// fs, loading Node's stream modules on a --help; a CommonJS file required by a CommonJS bin/mdget does
// neither (bench/README.md#start-up). Dependencies other than commander stay external and are loaded
// when a command needs them (chalk is an ES module: import() from CommonJS). So does the emulator, an ES
// module of dist/ that only `mdget emulator` loads. The bundle sits two levels below the package root, as
// dist/cli/main.js does, so the paths resolved from import.meta.url (package.json) stay right. The library
// (dist/index.js) is not bundled.
// Two files: main.cjs, what every start needs (flags, help, planning, --dry-run), and run.cjs, what a command
// loads once it runs (the run, the transport, the pipeline and writers, the reference and dataset commands),
// which main.cjs requires at its first import() of one of RUN_MODULES: `mdget --help` and `--dry-run` read and
// compile half the bytes. The modules whose state or classes the two share (an MdgetError is recognised by
// its class, the debug switches are set by main) are main.cjs's own, which run.cjs reads back from it.
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

/** Modules a command imports (import()) when it runs, never at start: run.cjs loads each on demand. */
const RUN_MODULES = [
  'core/run/run-job.js',
  'cli/run-deps.js',
  'core/sink/file-memory.js',
  'cli/commands/dataset.js',
  'cli/commands/exchanges.js',
  'cli/commands/instruments.js',
];
/** Modules with a state or a class both files use: run.cjs takes main.cjs's, as `__shared_<name>`. */
const SHARED = {
  errors: 'core/model/errors.js',
  fallbacks: 'core/model/fallbacks.js',
  chunkPool: 'core/buffers/chunk-pool.js',
};
const dist = new URL('dist/', root).pathname;
const inDist = (path) => (file) => file === `${dist}${path}`;

/**
 * In main.cjs, an import() of a run module becomes run.cjs's `load` of it (the module's exports, its code run
 * then: a download never runs the reference or dataset commands' modules); a static import fails the build.
 */
const runModulesInRunFile = {
  name: 'run-modules-in-run-file',
  setup(build) {
    build.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.namespace === 'run-module') return undefined;
      const file = new URL(args.path, `file://${args.resolveDir}/`).pathname;
      const path = RUN_MODULES.find((module) => inDist(module)(file));
      if (path === undefined) return undefined;
      if (args.kind !== 'dynamic-import')
        return { errors: [{ text: `${args.path} must be loaded with import(): it belongs in run.cjs` }] };
      return { path, namespace: 'run-module' };
    });
    build.onResolve({ filter: /^\.\/run\.cjs$/ }, () => ({ path: './run.cjs', external: true }));
    build.onLoad({ filter: /.*/, namespace: 'run-module' }, (args) => ({
      contents: `module.exports = require('./run.cjs').load(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: dist,
    }));
  },
};

/** In run.cjs, the shared modules are main.cjs's (loaded first: only main.cjs requires run.cjs). */
const sharedFromMain = {
  name: 'shared-from-main',
  setup(build) {
    build.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.namespace === 'shared') return undefined;
      const file = new URL(args.path, `file://${args.resolveDir}/`).pathname;
      const name = Object.keys(SHARED).find((key) => inDist(SHARED[key])(file));
      return name ? { path: name, namespace: 'shared' } : undefined;
    });
    build.onResolve({ filter: /^\.\/main\.cjs$/ }, () => ({ path: './main.cjs', external: true }));
    build.onLoad({ filter: /.*/, namespace: 'shared' }, (args) => ({
      contents: `module.exports = require('./main.cjs').__shared_${args.path};`,
      loader: 'js',
      resolveDir: dist,
    }));
  },
};

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  // A CommonJS file has no import.meta: the sources' import.meta.url becomes the bundle's own URL.
  banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  // The version, as the single binary has it: no package.json to read at start-up.
  define: { 'import.meta.url': '__import_meta_url', __MDGET_VERSION__: JSON.stringify(version) },
  // Less for V8 to scan at start-up; names stay, for readable stacks.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

rmSync(outdir, { recursive: true, force: true });
await build({
  ...common,
  stdin: {
    contents: [
      "export * from './cli/main.js';",
      ...Object.entries(SHARED).map(([name, path]) => `export * as __shared_${name} from './${path}';`),
    ].join('\n'),
    resolveDir: dist,
    loader: 'js',
  },
  outfile: `${outdir}/main.cjs`,
  plugins: [lazyChildProcessForCommander, emulatorStaysOut, runModulesInRunFile],
});
await build({
  ...common,
  stdin: {
    // CommonJS: each module's code runs when main.cjs first asks for it, not when run.cjs loads
    contents: [
      'const modules = {',
      ...RUN_MODULES.map((path) => `  ${JSON.stringify(path)}: () => require('./${path}'),`),
      '};',
      'exports.load = (path) => modules[path]();',
    ].join('\n'),
    resolveDir: dist,
    loader: 'js',
  },
  // undici goes in: one file to compile instead of its hundred-odd modules, each found, read and wrapped
  external: external.filter((name) => name !== 'undici' && name !== 'undici/*'),
  outfile: `${outdir}/run.cjs`,
  plugins: [lazyChildProcessForCommander, emulatorStaysOut, sharedFromMain],
});
