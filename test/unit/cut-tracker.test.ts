import { describe, expect, it } from 'vitest';
import { CutTracker } from '../../src/core/run/cut-tracker.js';

describe('CutTracker', () => {
  it('with a stated cap: at or above it is cut, below it complete, never a probe', () => {
    const cuts = new CutTracker({ maxRows: 1000 });
    expect([0, 1, 999, 1000, 1001].map((rows) => cuts.verdict('queryticks.ashx', rows))).toEqual([
      'complete',
      'complete',
      'complete',
      'cut',
      'cut',
    ]);
  });

  it('without one: a new high is probed; a probe that found more rows teaches the cap', () => {
    const cuts = new CutTracker();
    expect(cuts.verdict('queryminutes.ashx', 0)).toBe('complete');
    expect(cuts.verdict('queryminutes.ashx', 700)).toBe('probe');
    cuts.learn('queryminutes.ashx', 700, false);
    expect(cuts.verdict('queryminutes.ashx', 500)).toBe('complete');
    expect(cuts.verdict('queryminutes.ashx', 5000)).toBe('probe');
    cuts.learn('queryminutes.ashx', 5000, true);
    expect(cuts.learnedCap('queryminutes.ashx')).toBe(5000);
    expect(cuts.verdict('queryminutes.ashx', 5000)).toBe('cut');
    expect(cuts.verdict('queryminutes.ashx', 5003)).toBe('cut');
    // between the highest complete count and the cap: still probed (a tick cap may let a few more through)
    expect(cuts.verdict('queryminutes.ashx', 4000)).toBe('probe');
    expect([cuts.probes, cuts.probeHits]).toEqual([2, 1]);
  });

  it('a tie with the highest complete count is probed until two probes verified it', () => {
    const cuts = new CutTracker();
    cuts.learn('queryeod.ashx', 252, false);
    expect(cuts.verdict('queryeod.ashx', 252)).toBe('probe');
    cuts.learn('queryeod.ashx', 252, false);
    expect(cuts.verdict('queryeod.ashx', 252)).toBe('complete');
    expect(cuts.verdict('queryeod.ashx', 253)).toBe('probe');
  });

  it('learns per endpoint', () => {
    const cuts = new CutTracker();
    cuts.learn('queryticks.ashx', 1000, true);
    expect(cuts.verdict('queryticks.ashx', 1000)).toBe('cut');
    expect(cuts.verdict('queryminutes.ashx', 1000)).toBe('probe');
  });
});
