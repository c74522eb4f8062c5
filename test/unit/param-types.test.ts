import { describe, expectTypeOf, it } from 'vitest';
import type { minutesParams, SelectorsOf } from '../../src/core/model/params.js';
import type {
  EodParams,
  EventsParams,
  FuturesOptionsParams,
  MinutesParams,
  TicksParams,
} from '../../src/core/plan/urls.js';
import type { WallTime } from '../../src/core/time/dates.js';

// The builders' parameter types are derived from the tables: these pin what the derivation yields.
describe('parameter types derived from the tables', () => {
  it('ticks, minutes, events and futures options', () => {
    expectTypeOf<TicksParams>().toEqualTypeOf<{
      start?: WallTime;
      end?: WallTime;
      maxrecords?: number;
      order?: 'asc' | 'desc';
      sessionFilter?: string;
      trend?: boolean;
    }>();
    expectTypeOf<MinutesParams>().toEqualTypeOf<{
      start?: WallTime;
      end?: WallTime;
      interval?: number;
      maxrecords?: number;
      order?: 'asc' | 'desc';
      trend?: boolean;
    }>();
    expectTypeOf<SelectorsOf<typeof minutesParams>>().toEqualTypeOf<{ nearby?: boolean; formT?: boolean }>();
    expectTypeOf<EventsParams>().toEqualTypeOf<{
      start?: WallTime;
      end?: WallTime;
      splits?: boolean;
      dividends?: boolean;
      earnings?: boolean;
    }>();
    expectTypeOf<FuturesOptionsParams>().toEqualTypeOf<{ date?: WallTime }>();
  });

  it('eod', () => {
    expectTypeOf<EodParams>().toEqualTypeOf<{
      start?: WallTime;
      end?: WallTime;
      maxrecords?: number;
      order?: 'asc' | 'desc';
      period?: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
      nearest?: boolean;
      continue?: boolean;
      volume?: 'contract' | 'total' | 'sum' | 'sumcontract' | 'sumtotal';
      backadjust?: boolean;
      daysToExpiration?: number;
      contractRoll?: 'expiration' | 'combined';
      nth?: number;
      adjustSplits?: 'true' | 'false';
      adjustDividends?: 'true' | 'false';
      trend?: boolean;
    }>();
  });
});
