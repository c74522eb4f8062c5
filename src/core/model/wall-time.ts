/**
 * Market wall-clock times (no offsets on the wire: docs/time-zones.md) are held as a Date whose UTC fields
 * are the wall clock. Its own file so that the zone modules and dates.ts can share it without a cycle.
 */
export type WallTime = Date;
