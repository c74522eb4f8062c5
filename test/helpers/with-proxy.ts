import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './run-cli.js';

/** Debian's tinyproxy, where installed (.ci/run installs it); proxy tests skip without it. */
export const TINYPROXY = ['/usr/bin/tinyproxy', '/usr/sbin/tinyproxy'].find((path) => existsSync(path));

/** The host name no resolver knows: only the proxy reaches it, so a run that ignored the proxy fails. */
export const SERVICE_HOST = 'mdget-service.test';

export interface Proxy {
  /** `http://127.0.0.1:PORT` (with `user:password@` when the proxy asks for them). */
  url: string;
  port: number;
  /** What reached the far side of the proxy: each request line (`GET http://…`, `CONNECT host:port`). */
  forwarded: string[];
}

/**
 * Runs `body` with a real tinyproxy on 127.0.0.1 whose view of the network holds `mdget-service.test`:
 * its `Upstream` rule for `.test` hands those requests to a relay here that connects them to 127.0.0.1 at
 * the port they name (an emulator), as a resolver entry would. Plain HTTP reaches the relay in absolute
 * form, HTTPS as CONNECT. `auth` turns on tinyproxy's BasicAuth; `connectPorts` limits CONNECT.
 */
export async function withProxy<T>(
  options: { auth?: { user: string; password: string }; connectPorts?: readonly number[] },
  body: (proxy: Proxy) => Promise<T>,
): Promise<T> {
  if (!TINYPROXY) throw new Error('tinyproxy is not installed');
  const forwarded: string[] = [];
  const relay = await listen(createServer((socket) => relayTo127(socket, forwarded)));
  const port = await freePort();
  const dir = tempDir();
  const conf = join(dir, 'tinyproxy.conf');
  const lines = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 30',
    'MaxClients 20',
    'LogLevel Error',
    'Allow 127.0.0.1',
    `Upstream http 127.0.0.1:${(relay.address() as AddressInfo).port} ".test"`,
    ...(options.auth ? [`BasicAuth ${options.auth.user} ${options.auth.password}`] : []),
    // with ConnectPort lines, tinyproxy refuses CONNECT to any other port (403)
    ...(options.connectPorts ?? []).map((port) => `ConnectPort ${port}`),
    // running as root, tinyproxy would switch to this user
    'User nobody',
    'Group nogroup',
  ];
  writeFileSync(conf, `${lines.join('\n')}\n`);
  const child = spawn(TINYPROXY, ['-d', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  try {
    await waitForPort(port, () => stderr);
    const auth = options.auth ? `${options.auth.user}:${options.auth.password}@` : '';
    return await body({ url: `http://${auth}127.0.0.1:${port}`, port, forwarded });
  } finally {
    child.kill('SIGTERM');
    relay.close();
  }
}

/** One connection from tinyproxy: its first request line names the port of 127.0.0.1 to join. */
function relayTo127(socket: Socket, forwarded: string[]): void {
  let head = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    socket.off('data', onData);
    const line = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
    forwarded.push(line);
    const [method, target = ''] = line.split(' ');
    const authority = method === 'CONNECT' ? target : (/^http:\/\/([^/]+)/.exec(target)?.[1] ?? '');
    const port = Number(/:(\d+)$/.exec(authority)?.[1] ?? 80);
    const upstream = createConnection({ host: '127.0.0.1', port });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    if (method === 'CONNECT') {
      upstream.once('connect', () => socket.write('HTTP/1.0 200 Connection established\r\n\r\n'));
      const rest = head.subarray(end + 4);
      if (rest.length) upstream.write(rest);
    } else upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  };
  socket.on('data', onData);
  socket.on('error', () => {});
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A port nothing listens on now (tinyproxy takes its port from its file, not from the kernel). */
export async function freePort(): Promise<number> {
  const server = await listen(createServer());
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts connections on `port` (tinyproxy is up), counting tries, not time. */
async function waitForPort(port: number, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`tinyproxy did not start on port ${port}: ${log()}`);
}
