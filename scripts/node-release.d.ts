/** The pinned releases by major: the newest of each line on the registry when they were last raised. */
export const NODE_RELEASES: Record<number, string>;
/** The LTS line the single binary is built on. */
export const LTS_MAJOR: number;
/** Where the pinned Node of `major` is (or will be) unpacked. */
export function nodeReleaseDir(major: number, env?: NodeJS.ProcessEnv): string;
/** The path of the pinned Node `major`'s `node`, fetched with `npm pack` and unpacked on first use. */
export function nodeRelease(major?: number, env?: NodeJS.ProcessEnv): string;
