// npm run readme: rewrites the README's generated sections (commands, options, configuration, exit codes)
// from the tables in code (test/unit/readme.test.ts fails when they drift).
import { readFileSync, writeFileSync } from 'node:fs';
import { withReadmeTables } from '../dist/cli/readme-tables.js';

const path = new URL('../README.md', import.meta.url);
writeFileSync(path, withReadmeTables(readFileSync(path, 'utf8')));
