const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;
const INTEGER = /^[+-]?\d+$/;
// A denominator with prime factors other than 2 and 5 has no finite decimal expansion: stop here.
const MAX_INEXACT_DIGITS = 20;

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function withPoint(scaled: bigint, scale: number): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return (negative ? '-' : '') + whole + (fraction === '' ? '' : `.${fraction}`);
}

// BigInt, because strikes are 64-bit (docs/service.md#instrument-fields) and a double would round them.
/** Exact `numerator / denominator` as decimal text (`"47000"/"100"` → `"470"`); undefined if malformed or 0. */
export function divideDecimal(numerator: string, denominator: string): string | undefined {
  const parts = DECIMAL.exec(numerator.trim());
  if (!parts || !INTEGER.test(denominator.trim())) return undefined;
  const [, sign = '', whole = '', fraction = ''] = parts;
  let top = BigInt(sign + whole + fraction);
  let bottom = BigInt(denominator.trim()) * 10n ** BigInt(fraction.length);
  if (bottom === 0n) return undefined;
  if (bottom < 0n) [top, bottom] = [-top, -bottom];
  const common = gcd(top, bottom) || 1n;
  [top, bottom] = [top / common, bottom / common];
  let rest = bottom;
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) [rest, twos] = [rest / 2n, twos + 1];
  while (rest % 5n === 0n) [rest, fives] = [rest / 5n, fives + 1];
  const scale = rest === 1n ? Math.max(twos, fives) : MAX_INEXACT_DIGITS;
  return withPoint((top * 10n ** BigInt(scale)) / bottom, scale);
}
