/**
 * How an option is named in a message: the library names its options (`interval`), the CLI its flags
 * (`--interval`). Every rule takes one of these, so both hear the same rule in their own words.
 */
export type NameOf = (option: string, value?: unknown) => string;

/** The library's names: the options as written in its calls. */
export const optionNames: NameOf = (option) => option;
