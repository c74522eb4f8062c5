/**
 * Deterministic randomness: every generator seeds from what it describes (symbol, day, minute), so the
 * same request gives the same bytes and a window is always a slice of the whole day.
 */

/** A 32-bit FNV-1a hash of a string. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A small fast PRNG (mulberry32): good enough for market noise, cheap enough for 12M ticks. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [low, high]. */
  between(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }
}

/** A PRNG seeded from the parts joined, e.g. `rngFor('ESM25', 20250314)`. */
export function rngFor(...parts: (string | number)[]): Rng {
  return new Rng(hashString(parts.join('|')));
}
