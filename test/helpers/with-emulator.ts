import { type Emulator, type EmulatorOptions, startEmulator } from '../../src/emulator/index.js';

/** Runs `body` against a fresh emulator on 127.0.0.1, port 0, and always closes it. */
export async function withEmulator<T>(
  options: Partial<EmulatorOptions>,
  body: (emu: Emulator) => Promise<T>,
): Promise<T> {
  const emu = await startEmulator({ ...options, host: '127.0.0.1', port: 0 });
  try {
    return await body(emu);
  } finally {
    await emu.close();
  }
}
