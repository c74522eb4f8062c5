/**
 * The emulator over HTTPS (`mdget emulator --tls`): the server certificate it serves, and the CA file a
 * client trusts through NODE_EXTRA_CA_CERTS, written for the run and removed when it stops.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCertificates, type TlsMaterial } from './certificates.js';

/** The names the emulator's certificate is for: loopback, and the test host a proxy resolves. */
const HOSTS = ['localhost', '127.0.0.1', '::1', 'mdget-service.test'];

/** How the emulator serves: `true` makes a CA and a certificate for the run; material is served as given. */
export type EmulatorTls = boolean | TlsMaterial;

/** A listening side: its server, the event that hands it each connection, the CA, and cleanup. */
export interface Serving {
  server: Server;
  scheme: 'http' | 'https';
  /** The event a new connection's socket (the one requests carry) comes with. */
  connectionEvent: 'connection' | 'secureConnection';
  /** The CA certificate (PEM) and the file it was written to, over HTTPS. */
  ca?: { pem: string; file: string };
  dispose(): void;
}

/** An HTTP server, or an HTTPS one with the given or a new certificate for `host` and HOSTS. */
export function createServing(
  tls: EmulatorTls | undefined,
  host: string,
  listener: RequestListener,
): Serving {
  if (!tls) {
    return {
      server: createHttpServer(listener),
      scheme: 'http',
      connectionEvent: 'connection',
      dispose() {},
    };
  }
  const material = tls === true ? makeCertificates({ hosts: [...new Set([...HOSTS, host])] }) : tls;
  const dir = mkdtempSync(join(tmpdir(), 'mdget-emulator-ca-'));
  const file = join(dir, 'ca.pem');
  writeFileSync(file, material.ca.cert);
  const server = createHttpsServer({ key: material.server.key, cert: material.server.cert }, listener);
  return {
    server,
    scheme: 'https',
    connectionEvent: 'secureConnection',
    ca: { pem: material.ca.cert, file },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
