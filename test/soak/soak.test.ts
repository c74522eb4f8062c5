import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finalCheck } from './oracle.js';
import { reportOf, runSchedule } from './run-schedule.js';
import { generateSchedule } from './schedule.js';
import { runStep } from './steps.js';
import { closeWorld, openWorld } from './world.js';

/**
 * The schedules find bugs of sync that are not fixed yet: while this is true, they run only with
 * MDGET_SOAK=1. Set it to false to make them part of every `npm test`.
 */
const SOAK_PENDING = false;
/** Few dozen, few steps: the CI share of `npm run soak` (docs/testing.md). */
const CI_SEEDS = Array.from({ length: Number(process.env.MDGET_SOAK_SCHEDULES ?? 10) }, (_, i) => i + 1);
const CI_SHAPE = { maxSteps: 4 };

describe.skipIf(SOAK_PENDING && process.env.MDGET_SOAK !== '1').concurrent('seeded fault schedules', () => {
  for (const seed of CI_SEEDS)
    it(`seed ${seed}`, async () => {
      const result = await runSchedule(generateSchedule(seed, CI_SHAPE));
      // the report names the seed, its steps and what was found: `npm run soak -- --seed N` replays it
      expect(result.findings.length === 0 ? '' : reportOf(result)).toBe('');
    }, 120_000);
});

describe('the soak harness', () => {
  it('makes the same schedule from the same seed, and another from another', () => {
    expect(generateSchedule(7)).toEqual(generateSchedule(7));
    expect(generateSchedule(7)).not.toEqual(generateSchedule(8));
    const steps = Array.from({ length: 200 }, (_, seed) => generateSchedule(seed).steps).flat();
    // every kind of step comes up
    const kinds = new Set(
      steps.map((s) =>
        s.op === 'sync' ? Object.keys(s).sort().join('+') : `${s.op}:${'how' in s ? s.how : ''}`,
      ),
    );
    for (const kind of ['damage:flip', 'damage:delete', 'damage:stray', 'ledger:garble', 'lock:empty'])
      expect(kinds).toContain(kind);
    for (const key of ['kill', 'server', 'diskFreeKiB', 'second'])
      expect(
        steps.some((s) => s.op === 'sync' && key in s),
        key,
      ).toBe(true);
  });

  it('passes a schedule of clock moves and syncs with nothing wrong', async () => {
    const result = await runSchedule({
      seed: 0,
      start: '2025-03-11T15:00:00.000Z',
      steps: [
        { op: 'sync', concurrency: 2, retries: 0 },
        { op: 'clock', hours: 30 },
        { op: 'sync', concurrency: 4, retries: 0 },
        { op: 'clock', hours: 6 },
      ],
    });
    expect(result.findings).toEqual([]);
  }, 60_000);

  it('fails a dataset with a file a clean sync has not, naming the file', async () => {
    const world = await openWorld('2025-03-12T15:00:00.000Z', false);
    try {
      await runStep(world, { op: 'sync', concurrency: 2, retries: 0 });
      // a file no step made and no series' template matches: sync and verify leave it, the oracle may not
      mkdirSync(join(world.root, 'notes'));
      writeFileSync(join(world.root, 'notes/extra.txt'), 'extra\n');
      const signatures = (await finalCheck(world)).map((f) => f.signature);
      expect(signatures).toEqual(['after the final sync, a file a clean sync has not: notes/extra.txt']);
    } finally {
      await closeWorld(world);
    }
  }, 60_000);
});
