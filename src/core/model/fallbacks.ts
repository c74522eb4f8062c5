/**
 * The pipeline's fast paths (the WebAssembly line normalizer and JSON converter, the gzip decoder on zlib's
 * native handle, and the Parquet fast writer) each have a plain fallback in standard JavaScript, Node's
 * zlib stream or hyparquet-writer's public API (docs/internals.md). Each module takes its fallback by
 * itself where its fast path cannot run; this switch makes all of them take it,
 * so the fallbacks can be tested and compared byte for byte. Off unless a caller turns it on (the CLI does
 * for MDGET_DEBUG_PLAIN=1); read when a normalizer, converter, decoder or Parquet writer is made, so a run in progress
 * keeps the paths it started with.
 */
let plain = false;

/** Every fast path gives way to its plain fallback (on) or runs where it can (off, the default). */
export function usePlainFallbacks(on: boolean): void {
  plain = on;
}

/** Whether the switch is on. */
export function plainFallbacks(): boolean {
  return plain;
}
