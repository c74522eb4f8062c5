import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, nodePath, tempDir } from '../helpers/run-cli.js';

// Alpine's busybox (node:*-alpine images) has an env without -S and an ash for /bin/sh: Debian's busybox
// package stands in for both. Where it is not installed (.ci/run installs it) the test is skipped.
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const BUSYBOX = ['/usr/bin/busybox', '/bin/busybox'].find((path) => existsSync(path));

function run(file: string, args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { env, cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 128) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(BUSYBOX === undefined)('bin/mdget under busybox', () => {
  it("starts through npm's link with busybox's env and sh, and --env-file stays mdget's", async () => {
    const busybox = BUSYBOX ?? '';
    const project = tempDir();
    // a PATH where env and sh are busybox's, node the test's, as in an Alpine container
    const tools = join(project, 'tools');
    mkdirSync(tools);
    for (const name of ['env', 'sh']) symlinkSync(busybox, join(tools, name));
    const env = { PATH: `${tools}:${nodePath()}` };
    // the relative link npm makes in node_modules/.bin
    const dotBin = join(project, 'node_modules/.bin');
    mkdirSync(dotBin, { recursive: true });
    symlinkSync(relative(dotBin, BIN), join(dotBin, 'mdget'));
    writeFileSync(join(project, 'settings.env'), 'MDGET_USERNAME=alpine\n');

    // the stand-in is busybox's: an env -S shebang (mdget's old one) does not start there
    const old = await run(join(tools, 'env'), ['-S', 'node', '--', BIN, '--version'], env, project);
    expect(old.code).not.toBe(0);
    expect(old.stderr).toMatch(/invalid option/);

    const [version, config] = await Promise.all([
      run(join(tools, 'env'), ['mdget', '--version'], { PATH: `${dotBin}:${env.PATH}` }, project),
      run(
        join(tools, 'sh'),
        ['node_modules/.bin/mdget', 'config', '--env-file', 'settings.env'],
        env,
        project,
      ),
    ]);
    expect([version.code, version.stdout, version.stderr]).toEqual([0, `${VERSION}\n`, '']);
    expect([config.code, config.stderr]).toEqual([0, '']);
    expect(config.stdout).toMatch(/^MDGET_USERNAME +alpine +dotenv .*settings\.env$/m);
  });
});
