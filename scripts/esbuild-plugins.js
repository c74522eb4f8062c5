// esbuild plugins shared by the CLI bundle (bundle-cli.js) and the single binary (build-sea.js).

/**
 * commander requires child_process at load, for executable subcommands mdget does not have; loading it
 * (and dgram and net with it) costs every start a few ms. commander gets a spawn that requires
 * child_process on first call instead.
 */
export const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};
