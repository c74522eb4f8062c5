import { type Emulator, type EmulatorOptions, startEmulator } from '../../src/emulator/index.js';

/**
 * The debug switches every mdget process of the suite runs with: the poison always, and the plain
 * fallbacks when the suite itself runs with MDGET_DEBUG_PLAIN=1 (.ci/run runs a part of it so).
 */
export const DEBUG_ENV: Record<string, string> = {
  MDGET_DEBUG_POISON: '1',
  ...(process.env.MDGET_DEBUG_PLAIN === '1' ? { MDGET_DEBUG_PLAIN: '1' } : {}),
};

/** Runs `body` against a fresh emulator on 127.0.0.1, port 0, and always closes it. */
export async function withEmulator<T>(
  options: Partial<EmulatorOptions>,
  body: (emu: Emulator) => Promise<T>,
): Promise<T> {
  const emu = await startEmulator({ ...options, host: '127.0.0.1', port: 0 });
  // every mdget a test starts with these settings fills released chunks with poison (docs/internals.md)
  Object.assign(emu.env, DEBUG_ENV);
  try {
    return await body(emu);
  } finally {
    await emu.close();
  }
}
