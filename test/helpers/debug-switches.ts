// vitest setup: the library's own code in the test process runs with the use-after-release check on, and
// with the plain fallbacks when the suite is run with MDGET_DEBUG_PLAIN=1 (as .ci/run does for a part);
// the temporary directories of a test file go when it ends.
import { afterAll } from 'vitest';
import { poisonReleasedChunks } from '../../src/core/buffers/chunk-pool.js';
import { usePlainFallbacks } from '../../src/core/model/fallbacks.js';
import { removeTempDirs } from './run-cli.js';

poisonReleasedChunks(true);
if (process.env.MDGET_DEBUG_PLAIN === '1') usePlainFallbacks(true);
afterAll(removeTempDirs);
