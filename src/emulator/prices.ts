/**
 * Price levels as a smooth deterministic function of the wall-clock minute, so any window, day or bar size is
 * computed on its own without walking from the start of data. Prices are integers of 10^-decimals and go out
 * as plain decimal text: no exponent, varying decimals (docs/service.md#response-lines).
 */
import type { Contract, Market } from './catalogue.js';
import { MINUTES_PER_DAY } from './dates.js';
import { hashString, Rng } from './random.js';

interface Shape {
  phases: number[];
}

const shapes = new Map<string, Shape>();

function shapeOf(code: string): Shape {
  let shape = shapes.get(code);
  if (!shape) {
    const rng = new Rng(hashString(`shape|${code}`));
    shape = { phases: [0, 1, 2, 3, 4].map(() => rng.next() * 2 * Math.PI) };
    shapes.set(code, shape);
  }
  return shape;
}

const TWO_PI = 2 * Math.PI;

/** The market's price level at a wall-clock minute, before rounding to its tick. */
export function levelAt(market: Market, minute: number): number {
  const [p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0] = shapeOf(market.code).phases;
  const days = minute / MINUTES_PER_DAY;
  const swing =
    0.16 * Math.sin((TWO_PI * days) / 730 + p0) +
    0.05 * Math.sin((TWO_PI * days) / 97 + p1) +
    0.012 * Math.sin((TWO_PI * days) / 9.3 + p2) +
    0.003 * Math.sin((TWO_PI * minute) / 233 + p3) +
    0.0008 * Math.sin((TWO_PI * minute) / 17 + p4);
  return market.basePrice * Math.exp(swing * market.volatility);
}

/** Factor from the root's level to a contract's price: deferred months carry. */
export function carryFactor(contract: Contract, day: number): number {
  return 1 + (contract.spec.carry * (contract.expiryDay - day)) / 365;
}

/** Rounds a price to whole ticks, as an integer of 10^-decimals. */
export function toUnits(value: number, decimals: number, tickUnits: number): number {
  return Math.round((value * 10 ** decimals) / tickUnits) * tickUnits;
}

/** Decimal text of an integer of 10^-decimals: trailing zeros and a bare point dropped. */
export function formatUnits(units: number, decimals: number): string {
  const negative = units < 0;
  const magnitude = negative ? -units : units;
  if (decimals === 0) return (negative ? '-' : '') + magnitude;
  const scale = 10 ** decimals;
  const whole = Math.floor(magnitude / scale);
  let fraction = magnitude - whole * scale;
  if (fraction === 0) return (negative ? '-' : '') + whole;
  let digits = decimals;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  return `${negative ? '-' : ''}${whole}.${String(fraction).padStart(digits, '0')}`;
}

/** A price scale plus a cache of formatted prices: ticks reuse a few hundred distinct prices. */
export class PriceFormat {
  private readonly cache = new Map<number, string>();

  constructor(
    readonly decimals: number,
    readonly tickUnits: number,
  ) {}

  /** Rounds a level to the tick. */
  units(value: number): number {
    return toUnits(value, this.decimals, this.tickUnits);
  }

  /** Text of an integer price. */
  text(units: number): string {
    let text = this.cache.get(units);
    if (text === undefined) {
      text = formatUnits(units, this.decimals);
      if (this.cache.size < 100_000) this.cache.set(units, text);
    }
    return text;
  }
}
