import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { livenessOf, selfIdentity } from '../../src/core/dataset/process-identity.js';
import { LOCK_HEARTBEAT_MS, lockSync } from '../../src/core/dataset/sync-lock.js';
import { tempDir } from '../helpers/run-cli.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the sync lock', () => {
  it('names its holder so that a reused pid cannot pass for it', async () => {
    const self = selfIdentity();
    expect(livenessOf(self)).toBe('alive');
    expect(livenessOf({ ...self, startTime: `${self.startTime}0` })).toBe('gone');
    expect(livenessOf({ ...self, pidNamespace: 'pid:[1]' })).toBe('unknown');
    expect(livenessOf({ ...self, host: `${self.host}-other` })).toBe('unknown');
  });

  it('a held lock is refreshed every heartbeat and removed on release', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.mdget'));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const lock = await lockSync(root, undefined);
    const path = join(root, '.mdget/sync.lock');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid });
    vi.setSystemTime(Date.now() + 3_600_000);
    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS);
    // the refresh reads and touches the file off the timer: wait for the file to show it
    for (let i = 0; i < 500 && statSync(path).mtimeMs < Date.now() - 60_000; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(statSync(path).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    await lock.release();
    expect(() => statSync(path)).toThrow();
  });
});
