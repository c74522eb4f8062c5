/** The generated TypeScript module that embeds the compiled WAT `src/core/pipeline/wasm/<name>.wat` as base64. */
export function wasmModuleSource(name: string, watText: string): Promise<string>;
