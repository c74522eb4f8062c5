// npm run readme: rewrites the generated sections of README.md and docs/cli.md (commands, options,
// configuration, exit codes) from the tables in code (test/unit/readme.test.ts fails when they drift).
import { readFileSync, writeFileSync } from 'node:fs';
import { GENERATED_FILES, withGeneratedSections } from '../dist/cli/readme-tables.js';

for (const file of Object.keys(GENERATED_FILES)) {
  const path = new URL(`../${file}`, import.meta.url);
  writeFileSync(path, withGeneratedSections(file, readFileSync(path, 'utf8')));
}
