import {
  type Emulator,
  type EmulatorOptions,
  type EmulatorTls,
  startEmulator,
} from '../../src/emulator/index.js';
import { DEBUG_ENV } from './with-emulator.js';

/**
 * Runs `body` against a fresh emulator on 127.0.0.1 over HTTPS: `true` makes a CA and a certificate for
 * the run (its CA file is `emu.env.NODE_EXTRA_CA_CERTS`); material is served as given.
 */
export async function withTlsEmulator<T>(
  options: Partial<EmulatorOptions>,
  tls: EmulatorTls,
  body: (emu: Emulator) => Promise<T>,
): Promise<T> {
  const emu = await startEmulator({ ...options, host: '127.0.0.1', port: 0 }, tls);
  Object.assign(emu.env, DEBUG_ENV);
  try {
    return await body(emu);
  } finally {
    await emu.close();
  }
}
