import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { CANARY, type CliRun } from './run-cli.js';

/**
 * States a server cap no response reaches, so mdget sends no probe for a silent one
 * (docs/completeness.md#probes): for tests that assert the exact requests of a plan.
 */
export const NO_PROBES = { MDGET_MAX_ROWS: '1000000' } as const;

/** Emulator options that make the canary the account password. */
export const CANARY_ACCOUNT = { username: 'tester', password: CANARY } as const;

/** Asserts the canary appears in no output and in no file under `dirs` (cli.md redaction guarantee). */
export function expectNoCanary(run: CliRun, ...dirs: string[]): void {
  expect(run.stdout).not.toContain(CANARY);
  expect(run.stderr).not.toContain(CANARY);
  for (const dir of dirs) {
    for (const name of walk(dir)) expect(readFileSync(name, 'latin1'), name).not.toContain(CANARY);
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : name === '.env' ? [] : [path];
  });
}

/** The requests the emulator saw for one endpoint file name. */
export const requestsTo = (emu: Emulator, page: string) => emu.requests.filter((r) => r.path.endsWith(page));

/** Fetches a URL of the emulator directly (no mdget code), for byte comparisons. */
export async function fetchBytes(url: string): Promise<Buffer> {
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  return Buffer.from(await response.arrayBuffer());
}

/** The names in `dir` but the memories mdget keeps beside the files it writes (docs/cli.md#outputs). */
export const dataFilesIn = (dir: string): string[] =>
  readdirSync(dir).filter((name) => !name.endsWith('.mdget.json'));
