import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { makeCertificates } from '../../src/emulator/certificates.js';

describe("the emulator's certificates", () => {
  it('are valid DER every time: 600 serial numbers, each positive and minimal', () => {
    // A serial whose first byte came out zero was padding DER refuses: 1 set in 256 failed to load.
    const serials = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const material = makeCertificates({ hosts: ['127.0.0.1'] });
      createSecureContext({ key: material.server.key, cert: material.server.cert, ca: material.ca.cert });
      for (const pem of [material.server.cert, material.ca.cert]) {
        const serial = new X509Certificate(pem).serialNumber;
        expect(serial).toMatch(/^[4-7][0-9A-F]{23}$/);
        serials.add(serial);
      }
    }
    expect(serials.size).toBe(600);
  }, 60_000);
});
