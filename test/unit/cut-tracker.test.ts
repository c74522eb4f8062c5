import { describe, expect, it } from 'vitest';
import { CutTracker, PROBE_FLOOR } from '../../src/core/run/cut-tracker.js';

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

  it('without one: under the floor complete, never probed, whatever the counts before', () => {
    const cuts = new CutTracker();
    expect([0, 1, 700, PROBE_FLOOR - 1].map((rows) => cuts.verdict('queryticks.ashx', rows))).toEqual([
      'complete',
      'complete',
      'complete',
      'complete',
    ]);
    expect(cuts.verdict('queryticks.ashx', PROBE_FLOOR)).toBe('probe');
    expect(cuts.probes).toBe(0);
  });

  it('without one: a new high is probed; a probe that found more rows teaches the cap', () => {
    const cuts = new CutTracker();
    expect(cuts.verdict('queryminutes.ashx', 0)).toBe('complete');
    expect(cuts.verdict('queryminutes.ashx', 7000)).toBe('probe');
    cuts.learn('queryminutes.ashx', 7000, false);
    expect(cuts.verdict('queryminutes.ashx', 6000)).toBe('complete');
    expect(cuts.verdict('queryminutes.ashx', 9000)).toBe('probe');
    cuts.learn('queryminutes.ashx', 9000, true);
    expect(cuts.verdict('queryminutes.ashx', 8999)).not.toBe('cut');
    expect(cuts.verdict('queryminutes.ashx', 9000)).toBe('cut');
    expect(cuts.verdict('queryminutes.ashx', 9003)).toBe('cut');
    // between the highest complete count and the cap: still probed (a tick cap may let a few more through)
    expect(cuts.verdict('queryminutes.ashx', 8000)).toBe('probe');
    expect([cuts.probes, cuts.probeHits]).toEqual([2, 1]);
  });

  it('a tie with the highest complete count is probed until two probes verified it', () => {
    const cuts = new CutTracker();
    cuts.learn('queryeod.ashx', 6552, false);
    expect(cuts.verdict('queryeod.ashx', 6552)).toBe('probe');
    cuts.learn('queryeod.ashx', 6552, false);
    expect(cuts.verdict('queryeod.ashx', 6552)).toBe('complete');
    expect(cuts.verdict('queryeod.ashx', 6553)).toBe('probe');
  });

  it('learns per endpoint', () => {
    const cuts = new CutTracker();
    cuts.learn('queryticks.ashx', 6000, true);
    expect(cuts.verdict('queryticks.ashx', 6000)).toBe('cut');
    expect(cuts.verdict('queryminutes.ashx', 6000)).toBe('probe');
  });
});
