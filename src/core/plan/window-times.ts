import { utcOfWallTime } from '../time/time-zones.js';
import type { RequestPlan } from './planned-request.js';

/**
 * A request's window in the market's wall-clock time and in UTC, for --dry-run: the service is
 * asked in market time, so a user reading UTC sees what that means. Undefined for requests with no window.
 */
export function windowTimes(plan: RequestPlan): string | undefined {
  const window = plan.series?.window;
  if (!window || (!window.start && !window.end)) return undefined;
  const { zone } = plan;
  const market = (time: Date | undefined) => (time ? time.toISOString().slice(0, 16).replace('T', ' ') : '…');
  const utc = (time: Date | undefined) =>
    time ? `${utcOfWallTime(time, zone, 'earlier').toISOString().slice(0, 16)}Z` : '…';
  return `${market(window.start)} → ${market(window.end)} ${zone} = ${utc(window.start)} → ${utc(window.end)}`;
}
