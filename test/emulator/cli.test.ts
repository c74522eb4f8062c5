import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

/** A TCP server holding a port on 127.0.0.1, the emulator's host. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { server, port: address.port };
}

describe('mdget emulator (the built CLI)', () => {
  it('refuses a busy --port with one usage line, exit 2, no stack trace', async () => {
    const { server, port } = await holdPort();
    try {
      const run = await runCli(['emulator', '--port', String(port)]);
      expect([run.code, run.stdout, run.stderr]).toEqual([
        2,
        '',
        `mdget: --port ${port}: address in use: choose another port or 0\n`,
      ]);
      const viaSet = await runCli(['emulator', '--set', `port=${port}`]);
      expect([viaSet.code, viaSet.stderr]).toEqual([
        2,
        `mdget: --port ${port}: address in use: choose another port or 0\n`,
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each(['abc', '-1', '65536', '8080x', ''])(
    'refuses --port %j naming the accepted form',
    async (value) => {
      const run = await runCli(['emulator', '--port', value]);
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toBe(`mdget: --port '${value}': expected an integer 0-65535 (0 = any free port)\n`);
    },
  );

  it('points an unknown --set key to mdget emulator --help-options', async () => {
    const run = await runCli(['emulator', '--set', 'foo=bar']);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toBe(
      'mdget: --set foo=bar: unknown emulator option "foo": see mdget emulator --help-options for the list\n',
    );
    const bad = await runCli(['emulator', '--set', 'tickLimit=most']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'mdget: --set tickLimit=most: emulator option tickLimit: expected one of second, exact, got "most"\n',
    ]);
  });

  it('lists the options with --help-options, exit 0', async () => {
    const run = await runCli(['emulator', '--help-options']);
    expect(run.code).toBe(0);
    for (const option of ['eodEnd', 'tickLimit', 'latency', 'strayLineEnd'])
      expect(run.stdout).toMatch(new RegExp(`^  ${option} `, 'm'));
  });
});
