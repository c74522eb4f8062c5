const INTEGER = /^[+-]?\d+$/;
// The ECMAScript Date range: ±10^8 days around the epoch.
const MAX_EPOCH_MS = 8.64e15;
const NS_PER_SECOND = 1_000_000_000n;

function isoOfMs(ms: number): string | undefined {
  return Math.abs(ms) <= MAX_EPOCH_MS ? new Date(ms).toISOString() : undefined;
}

/** The UTC calendar date (`YYYY-MM-DD`) of epoch milliseconds written as text (wire-formats §3.2). */
export function epochMsToIsoDate(ms: string): string | undefined {
  if (!INTEGER.test(ms)) return undefined;
  return isoOfMs(Number(ms))?.slice(0, -14);
}

/** The UTC timestamp of epoch nanoseconds written as text, all nine fraction digits kept. */
export function epochNsToIso(ns: string): string | undefined {
  if (!INTEGER.test(ns)) return undefined;
  const total = BigInt(ns);
  let seconds = total / NS_PER_SECOND;
  let fraction = total % NS_PER_SECOND;
  // BigInt division truncates toward zero; times before 1970 need the floor.
  if (fraction < 0n) [seconds, fraction] = [seconds - 1n, fraction + NS_PER_SECOND];
  const iso = isoOfMs(Number(seconds) * 1000);
  return iso === undefined ? undefined : `${iso.slice(0, -5)}.${fraction.toString().padStart(9, '0')}Z`;
}

/** `YYYY-MM-DD`, `YYYY-MM` or `YYYY` from year, month and day parts (0 = unset); 2-digit years get 2000 added. */
export function calendarDate(year: number, month = 0, day = 0): string | undefined {
  if (
    ![year, month, day].every(Number.isInteger) ||
    year <= 0 ||
    month < 0 ||
    month > 12 ||
    day < 0 ||
    day > 31
  )
    return undefined;
  const fullYear = year < 100 ? year + 2000 : year;
  const parts = [String(fullYear).padStart(4, '0')];
  if (month > 0) parts.push(String(month).padStart(2, '0'));
  if (month > 0 && day > 0) parts.push(String(day).padStart(2, '0'));
  return parts.join('-');
}
