// npm run readme: rewrites the README's command sections from the parameter tables in code
// (test/unit/readme.test.ts fails when they drift).
import { readFileSync, writeFileSync } from 'node:fs';
import { withCommandTables } from '../dist/cli/readme-tables.js';

const path = new URL('../README.md', import.meta.url);
writeFileSync(path, withCommandTables(readFileSync(path, 'utf8')));
