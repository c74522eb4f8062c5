/**
 * Market wall-clock times (spec §1.2: no offsets on the wire) are held as a Date whose UTC fields are
 * the wall clock. Its own file so that the zone modules and dates.ts can share it without a cycle.
 */
export type WallTime = Date;
