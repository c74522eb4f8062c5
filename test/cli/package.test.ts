import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { nodePath, tempDir } from '../helpers/run-cli.js';

const execFileAsync = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
// npm run by the test's own node; --ignore-scripts: prepack would rebuild dist/ under the other tests' feet.
const env = { ...process.env, PATH: nodePath(), NO_COLOR: '1' };
const npm = (args: string[], cwd: string) => execFileAsync('npm', args, { cwd, env, timeout: 120_000 });
const npx = (args: string[], cwd: string) => execFileAsync('npx', args, { cwd, env, timeout: 60_000 });

interface PackResult {
  filename: string;
  files: { path: string }[];
}

describe('the npm package (release hygiene)', () => {
  it('holds the CLI, the library, README and CHANGELOG: no tests, fixtures, sources or secrets', async () => {
    const { stdout } = await npm(['pack', '--dry-run', '--json', '--ignore-scripts'], root);
    const paths = ((JSON.parse(stdout) as PackResult[])[0]?.files ?? []).map((file) => file.path).sort();
    expect(paths).toEqual(
      expect.arrayContaining([
        'CHANGELOG.md',
        'README.md',
        'bin/mdget',
        'dist/cli/main.js',
        'bin/package.json',
        'dist/cli-bundle/main.cjs',
        'dist/index.d.ts',
        'dist/index.js',
        'package.json',
      ]),
    );
    const unexpected = paths.filter(
      (path) =>
        !/^(bin\/mdget|bin\/package\.json|dist\/.+\.(c?js|d\.ts)|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/.test(
          path,
        ) ||
        /(^|\/)(test|tests|fixtures|__tests__)\/|\.test\.|(^|\/)\.env|\.npmrc|\.(pem|key|p12)$|secret/i.test(
          path,
        ),
    );
    expect(unexpected).toEqual([]);
  });

  it('installs from its tarball into an empty directory, where npx mdget --help and --version work', {
    timeout: 120_000,
  }, async () => {
    const packDir = tempDir();
    const { stdout } = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], root);
    const tarball = join(packDir, (JSON.parse(stdout) as PackResult[])[0]?.filename ?? '');
    const project = tempDir();
    // Dependencies come from npm's cache (npm ci filled it); no install scripts, so no addon is compiled.
    await npm(
      ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--no-save', tarball],
      project,
    );
    const help = await npx(['mdget', '--help'], project);
    expect(help.stdout).toMatch(/^Usage: mdget \[options\] \[command\]\n/);
    expect((await npx(['mdget', '--version'], project)).stdout).toBe(`${version}\n`);
  });
});
