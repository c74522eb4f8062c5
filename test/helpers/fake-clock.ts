/** Driving the emulator on vitest's fake timers: answers observed as counted events, not elapsed time. */
import { vi } from 'vitest';
import { get, type RawResponse } from '../emulator/http.js';

/** A few turns of the event loop (setImmediate is not faked): what does not wait on a timer happens. */
export async function turns(count = 20): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Turns the event loop until `ready()` holds. */
export async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await turns(1);
}

/**
 * GETs `url` on a fake clock and reports whether the answer had come before the clock moved, and after
 * `latency - 1` ms of it; then moves it to `latency` and returns the response.
 */
export async function onFakeClock(
  emu: { requests: unknown[] },
  url: string,
  latencyMs: number,
): Promise<{ atOnce: boolean; justBefore: boolean; response: RawResponse }> {
  const before = emu.requests.length;
  let answered = false;
  const pending = get(url, {}, false).then((response) => {
    answered = true;
    return response;
  });
  await until(() => emu.requests.length > before || answered);
  await turns();
  const atOnce = answered;
  vi.advanceTimersByTime(Math.max(0, latencyMs - 1));
  await turns();
  const justBefore = answered;
  vi.advanceTimersByTime(1);
  return { atOnce, justBefore, response: await pending };
}
