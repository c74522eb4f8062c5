import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

/** The data rows of an EOD csv (symbol, date, open, high, low, close, volume), as fields. */
const rows = (csv: string): string[][] =>
  csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','));

describe('eod --period weekly and an exclusive --end', () => {
  it('a week cut by --end holds only the days before it, as the daily bars show them', async () => {
    await withEmulator({}, async (emu) => {
      const cutRange = ['--start', '2025-03-31', '--end', '2025-04-01', '-q'];
      const weekRange = ['--start', '2025-03-31', '--end', '2025-04-05', '-q'];
      const [cut, monday, week, days] = await Promise.all([
        runMain(['eod', 'AAPL', '--period', 'weekly', ...cutRange], { env: emu.env }),
        runMain(['eod', 'AAPL', ...cutRange], { env: emu.env }),
        runMain(['eod', 'AAPL', '--period', 'weekly', ...weekRange], { env: emu.env }),
        runMain(['eod', 'AAPL', ...weekRange], { env: emu.env }),
      ]);
      expect([cut.code, monday.code, week.code, days.code]).toEqual([0, 0, 0, 0]);
      // Monday alone: the bar is Monday's daily bar, not one with Tuesday's low and close
      expect(rows(monday.stdout).map((r) => r[1])).toEqual(['2025-03-31']);
      expect(rows(cut.stdout).map((r) => r.slice(0, 6))).toEqual(
        rows(monday.stdout).map((r) => r.slice(0, 6)),
      );
      // the whole week: Monday's open, the week's high and low, Friday's close
      const five = rows(days.stdout);
      expect(five.map((r) => r[1])).toEqual([
        '2025-03-31',
        '2025-04-01',
        '2025-04-02',
        '2025-04-03',
        '2025-04-04',
      ]);
      const column = (i: number) => five.map((r) => Number(r[i]));
      expect(rows(week.stdout).map((r) => r.slice(2, 6).map(Number))).toEqual([
        [column(2)[0], Math.max(...column(3)), Math.min(...column(4)), column(5)[4]],
      ]);
      // what was sent: the last day before each --end, as the service's end is inclusive
      const weekly = emu.requests.filter(
        (r) => r.path.endsWith('queryeod.ashx') && r.query.data === 'weekly',
      );
      expect(weekly.map((r) => r.query.end).sort()).toEqual(['20250331', '20250404']);
    });
  });
});
