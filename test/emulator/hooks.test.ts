import { describe, expect, it } from 'vitest';
import { withEmulator } from '../helpers/with-emulator.js';
import { get, withCredentials } from './http.js';

describe('emulator: hooks of a test in the same process', () => {
  it('holds a request in beforeAnswer until the hook settles, and calls afterAnswer once it is sent', async () => {
    await withEmulator({}, async (emu) => {
      const events: string[] = [];
      let release = () => {};
      emu.hooks.beforeAnswer = (request) => {
        events.push(`before ${request.path}`);
        // a switch set here applies to this very request: the hook runs before faults are taken
        emu.options.faults = [{ kind: 'status', status: 503, times: 1 }];
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      };
      emu.hooks.afterAnswer = (request) => events.push(`after ${request.path}`);
      const url = `${emu.urls.historical}/queryeod.ashx?${withCredentials(emu, { symbol: 'AAPL' })}`;
      const answer = get(url).then((response) => {
        events.push(`answered ${response.status}`);
        return response;
      });
      while (events.length === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(events).toEqual(['before /historical/queryeod.ashx']);
      release();
      expect((await answer).status).toBe(503);
      while (events.length < 3) await new Promise((resolve) => setImmediate(resolve));
      expect(events.sort()).toEqual([
        'after /historical/queryeod.ashx',
        'answered 503',
        'before /historical/queryeod.ashx',
      ]);
    });
  });
});
