/** The generated TypeScript module that embeds the compiled WAT as base64. */
export function wasmModuleSource(watText: string): Promise<string>;
