// `npm run soak -- --schedules N [--seed S]`: the seeded fault schedules of test/soak (docs/testing.md),
// as many as asked. The harness is TypeScript beside the tests; esbuild makes one ES module of it in
// dist/soak (dependencies stay external, found in node_modules), and this script runs it.
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const outfile = new URL('dist/soak/soak.mjs', root).pathname;
await build({
  entryPoints: [new URL('test/soak/soak-main.ts', root).pathname],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile,
  packages: 'external',
  logLevel: 'warning',
});
const { soakMain } = await import(outfile);
process.exitCode = await soakMain(process.argv.slice(2), (line) => console.log(line));
