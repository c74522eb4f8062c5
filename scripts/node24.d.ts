/** The pinned release: the newest 24.x on the registry when this was written. */
export const NODE24_VERSION: string;
/** Where the pinned Node is (or will be) unpacked. */
export function node24Dir(env?: NodeJS.ProcessEnv): string;
/** The path of the pinned Node 24's `node`, fetched with `npm pack` and unpacked on first use. */
export function node24(env?: NodeJS.ProcessEnv): string;
