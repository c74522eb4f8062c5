import { describe, expect, it } from 'vitest';
import { datasetFromObject } from '../../src/core/dataset/dataset-file.js';
import { planSeries } from '../../src/core/dataset/series-plan.js';

describe('a futures options series', () => {
  it('is one file per trading day: the days of the range as windows cut them, weekends left out', async () => {
    const dataset = await datasetFromObject(
      {
        series: [
          {
            name: 'fo',
            kind: 'futopts',
            symbols: ['ZC'],
            start: '2025-03-13',
            end: '2025-03-19',
            path: 'fo/{symbol}-{date}.csv',
          },
        ],
      },
      '/tmp/dataset',
    );
    const plan = planSeries(dataset.series[0] as (typeof dataset.series)[number], {
      // plans hold no URL: no credentials or base URLs are needed to plan
      config: {},
      now: new Date('2025-03-20T12:00:00Z'),
      root: dataset.root,
    });
    expect(plan.outputs.map((output) => output.key)).toEqual([
      'fo/ZC-2025-03-13.csv',
      'fo/ZC-2025-03-14.csv',
      'fo/ZC-2025-03-17.csv',
      'fo/ZC-2025-03-18.csv',
    ]);
  });
});
