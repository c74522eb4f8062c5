// vitest setup: the library's own code in the test process runs with the use-after-release check on.
import { poisonReleasedChunks } from '../../src/core/pipeline/chunk-pool.js';

poisonReleasedChunks(true);
