/**
 * Certificates for `mdget emulator --tls`: a certificate authority and a server certificate signed by it,
 * made for the run with node:crypto (P-256 keys, ECDSA with SHA-256). Node signs but has no certificate
 * builder, so this file writes the few X.509 structures it needs in DER (RFC 5280) itself.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/** A certificate and its key, in PEM. */
export interface CertifiedKey {
  cert: string;
  key: string;
}

/** A CA and a server certificate it signed: what an HTTPS emulator serves, and what a client trusts. */
export interface TlsMaterial {
  ca: CertifiedKey;
  server: CertifiedKey;
}

export interface CertificateOptions {
  /** Host names and IP addresses the server certificate is for. */
  hosts: readonly string[];
  /** The validity of the server certificate (default: from an hour ago, for thirty days). */
  notBefore?: Date;
  notAfter?: Date;
  /** The authority to sign with (default: a new one). */
  ca?: CertifiedKey;
}

const DAY_MS = 86_400_000;

/** A new CA (unless one is given) and a server certificate for `hosts` signed by it. */
export function makeCertificates(options: CertificateOptions): TlsMaterial {
  const now = Date.now();
  const ca = options.ca ?? selfSignedCa(new Date(now - 3_600_000), new Date(now + 30 * DAY_MS));
  const caKey = createPrivateKey(ca.key);
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const names = options.hosts.map((host) =>
    isIP(host) ? tagged(0x87, ipBytes(host)) : tagged(0x82, Buffer.from(host, 'ascii')),
  );
  const signed = certificate(
    {
      subject: options.hosts[0] ?? 'localhost',
      issuer: 'mdget emulator CA',
      notBefore: options.notBefore ?? new Date(now - 3_600_000),
      notAfter: options.notAfter ?? new Date(now + 30 * DAY_MS),
      publicKey,
      extensions: [
        extension('2.5.29.19', true, sequence()), // basicConstraints: not a CA
        extension('2.5.29.15', true, bitString(Buffer.from([0x80]), 7)), // keyUsage: digitalSignature
        extension('2.5.29.17', false, sequence(...names)), // subjectAltName
      ],
    },
    caKey,
  );
  return { ca, server: { cert: pem('CERTIFICATE', signed), key: privateKeyPem(privateKey) } };
}

function selfSignedCa(notBefore: Date, notAfter: Date): CertifiedKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signed = certificate(
    {
      subject: 'mdget emulator CA',
      issuer: 'mdget emulator CA',
      notBefore,
      notAfter,
      publicKey,
      extensions: [
        extension('2.5.29.19', true, sequence(der(0x01, Buffer.from([0xff])))), // basicConstraints: CA
        extension('2.5.29.15', true, bitString(Buffer.from([0x06]), 1)), // keyUsage: keyCertSign, cRLSign
      ],
    },
    privateKey,
  );
  return { cert: pem('CERTIFICATE', signed), key: privateKeyPem(privateKey) };
}

interface TbsFields {
  subject: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  extensions: Buffer[];
}

/** A certificate: the fields to be signed, the algorithm, and the signature by `signer`. */
function certificate(fields: TbsFields, signer: KeyObject): Buffer {
  const serial = randomBytes(12);
  // positive (top bit clear) and minimal (a first byte of zero would be padding DER refuses, 1 in 256)
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  const tbs = sequence(
    tagged(0xa0, der(0x02, Buffer.from([2]))), // version 3
    der(0x02, serial),
    ecdsaSha256(),
    name(fields.issuer),
    sequence(time(fields.notBefore), time(fields.notAfter)),
    name(fields.subject),
    fields.publicKey.export({ type: 'spki', format: 'der' }),
    tagged(0xa3, sequence(...fields.extensions)),
  );
  return sequence(tbs, ecdsaSha256(), bitString(sign('sha256', tbs, signer), 0));
}

const ecdsaSha256 = () => sequence(oid('1.2.840.10045.4.3.2'));

/** A Name of one common name (CN). */
const name = (commonName: string) =>
  sequence(der(0x31, sequence(oid('2.5.4.3'), der(0x0c, Buffer.from(commonName, 'utf8')))));

const extension = (id: string, critical: boolean, value: Buffer) =>
  sequence(oid(id), ...(critical ? [der(0x01, Buffer.from([0xff]))] : []), der(0x04, value));

/** UTCTime up to 2049, GeneralizedTime after, as RFC 5280 asks. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050
    ? der(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : der(0x18, Buffer.from(`${iso}Z`));
}

const sequence = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const tagged = (tag: number, content: Buffer) => der(tag, content);
const bitString = (bits: Buffer, unused: number) => der(0x03, Buffer.concat([Buffer.from([unused]), bits]));

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) base128.unshift((value & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

/** One DER element: tag, definite length, content. */
function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const lengthBytes: number[] = [];
  for (let value = length; value > 0; value >>>= 8) lengthBytes.unshift(value & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | lengthBytes.length, ...lengthBytes]), content]);
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head = '', tail = ''] = ip.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const fill = 8 - groups(head).length - groups(tail).length;
  const all = ip.includes('::') ? [...groups(head), ...Array(fill).fill('0'), ...groups(tail)] : groups(ip);
  return Buffer.concat(
    all.map((group) => Buffer.from([parseInt(group, 16) >> 8, parseInt(group, 16) & 0xff])),
  );
}

const pem = (label: string, bytes: Buffer) =>
  `-----BEGIN ${label}-----\n${bytes.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;

const privateKeyPem = (key: KeyObject) => String(key.export({ type: 'pkcs8', format: 'pem' }));
