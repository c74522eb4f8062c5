import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerRow } from '../../src/core/dataset/ledger.js';
import { inShare } from '../../src/core/dataset/sync-decisions.js';
import { barGaps, windowGaps } from '../../src/core/dataset/verify-gaps.js';
import { tempDir } from '../helpers/run-cli.js';

const row = (day: string, rows: number, symbol = 'AAPL'): LedgerRow => ({
  path: `m/${symbol}-${day}.csv`,
  series: 'm',
  symbol,
  windowStart: day,
  windowEnd: day,
  rows,
  bytes: 1,
  sha256: '',
  fetchedAt: '',
  provisional: false,
  requests: 1,
  continuations: 0,
});

describe('suspicious gaps', () => {
  it('a weekday without rows between days with rows; not a weekend, not the edges, not another symbol', () => {
    const rows = [
      row('2025-02-13', 10),
      row('2025-02-14', 10),
      row('2025-02-15', 0), // Saturday
      row('2025-02-16', 0), // Sunday
      row('2025-02-17', 0), // a Monday holiday
      row('2025-02-18', 10),
      row('2025-02-19', 0), // after the last day with rows: the data may not be there yet
      row('2025-02-12', 0, 'MSFT'),
    ];
    expect(windowGaps(rows).map((g) => g.path)).toEqual(['m/AAPL-2025-02-17.csv']);
  });

  it('EOD: more than four weekdays without a bar inside the range; four is not a gap', async () => {
    const file = join(tempDir(), 'AAPL.csv');
    const days = ['2025-03-03', '2025-03-04', '2025-03-10', '2025-03-17', '2025-03-24', '2025-03-31'];
    writeFileSync(file, `symbol,date,close\n${days.map((d) => `AAPL,${d},1`).join('\n')}\n`);
    const gaps = await barGaps('eod/AAPL.csv', file, row('2025-03-03', 6));
    // 03-04 → 03-10: 5..7 are three weekdays; 03-10 → 03-17: four; 03-24 → 03-31: four. None is more.
    expect(gaps).toEqual([]);
    writeFileSync(file, 'AAPL,3/3/2025,1\r\nAAPL,3/11/2025,1\r\n');
    expect((await barGaps('eod/AAPL.csv', file, row('2025-03-03', 2))).map((g) => g.detail)).toEqual([
      'no bar for 5 weekdays between 2025-03-03 and 2025-03-11',
    ]);
  });
});

describe('shards', () => {
  it('every key is in exactly one share, and stays there whatever else is planned', () => {
    const keys = Array.from({ length: 300 }, (_, i) => `ticks/S${i}/2025-03-1${i % 10}.csv`);
    const shares = keys.map((k) => [1, 2, 3].filter((index) => inShare(k, { index, count: 3 })));
    expect(shares.every((s) => s.length === 1)).toBe(true);
    const counts = [1, 2, 3].map((i) => shares.filter((s) => s[0] === i).length);
    expect(Math.min(...counts)).toBeGreaterThan(70);
  });
});
