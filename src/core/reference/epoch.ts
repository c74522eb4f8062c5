const INTEGER = /^[+-]?\d+$/;
// The ECMAScript Date range: ±10^8 days around the epoch.
const MAX_EPOCH_MS = 8.64e15;
const NS_PER_SECOND = 1_000_000_000n;

const MS_DIGITS = /^-?\d{1,15}$/;
const NS_DIGITS = /^\d{1,19}$/;
const MS_PER_DAY = 86_400_000;
const SECONDS_PER_DAY = 86_400;

function isoOfMs(ms: number): string | undefined {
  return Math.abs(ms) <= MAX_EPOCH_MS ? new Date(ms).toISOString() : undefined;
}

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

// Date and toISOString cost a microsecond a call, and an instruments file has four dates an entry.
/** `YYYY-MM-DD` of a day count since 1970-01-01 (proleptic Gregorian, H. Hinnant's civil_from_days); undefined outside years 1000-9999. */
function isoDateOfDays(days: number): string | undefined {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  // Other years take toISOString's path, which writes them with a sign and six digits.
  if (year < 1000 || year > 9999) return undefined;
  return `${year}-${twoDigits(month)}-${twoDigits(day)}`;
}

/** The UTC calendar date (`YYYY-MM-DD`) of epoch milliseconds written as text. */
export function epochMsToIsoDate(ms: string): string | undefined {
  if (MS_DIGITS.test(ms)) {
    const date = isoDateOfDays(Math.floor(Number(ms) / MS_PER_DAY));
    if (date !== undefined) return date;
  }
  if (!INTEGER.test(ms)) return undefined;
  return isoOfMs(Number(ms))?.slice(0, -14);
}

/** The UTC timestamp of epoch nanoseconds written as text, all nine fraction digits kept. */
export function epochNsToIso(ns: string): string | undefined {
  if (NS_DIGITS.test(ns)) {
    // Up to 19 digits: the seconds fit a double exactly, so plain arithmetic does what BigInt does below.
    const seconds = ns.length > 9 ? Number(ns.slice(0, -9)) : 0;
    const days = Math.floor(seconds / SECONDS_PER_DAY);
    const date = isoDateOfDays(days);
    if (date !== undefined) {
      const secondOfDay = seconds - days * SECONDS_PER_DAY;
      const hours = Math.floor(secondOfDay / 3600);
      const minutes = Math.floor((secondOfDay % 3600) / 60);
      const fraction = ns.length > 9 ? ns.slice(-9) : ns.padStart(9, '0');
      return `${date}T${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(secondOfDay % 60)}.${fraction}Z`;
    }
  }
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
    !Number.isInteger(year) ||
    !Number.isInteger(month) ||
    !Number.isInteger(day) ||
    year <= 0 ||
    month < 0 ||
    month > 12 ||
    day < 0 ||
    day > 31
  )
    return undefined;
  const fullYear = year < 100 ? year + 2000 : year;
  let text = String(fullYear).padStart(4, '0');
  if (month > 0) {
    text += `-${twoDigits(month)}`;
    if (day > 0) text += `-${twoDigits(day)}`;
  }
  return text;
}
