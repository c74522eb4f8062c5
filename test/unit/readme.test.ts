import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS, type CommandSpec } from '../../src/cli/command-table.js';
import { EXIT_CODES } from '../../src/cli/exit-codes.js';
import { OPTIONS, type OptionSpec } from '../../src/cli/options.js';
import { GENERATED_FILES, type GeneratedFile, withGeneratedSections } from '../../src/cli/readme-tables.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const readme = read('README.md');
const cli = read('docs/cli.md');

describe('README and docs/cli.md', () => {
  it.each(Object.keys(GENERATED_FILES) as GeneratedFile[])(
    '%s has the sections generated from the tables (run `npm run readme` after changing them)',
    (file) => {
      const text = read(file);
      expect(text).toBe(withGeneratedSections(file, text));
    },
  );

  it('name every command and exit code in the README, every flag and query parameter in docs/cli.md', () => {
    for (const spec of COMMANDS as readonly CommandSpec[]) {
      expect(readme).toContain(`mdget ${spec.name}`);
      expect(cli).toContain(`mdget ${spec.name}`);
      for (const param of spec.params ?? []) {
        expect(cli).toContain(`--${param.flag}`);
        if (param.query) expect(cli).toContain(`${param.query}=`);
      }
    }
    for (const [name, row] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
      if (!row.hidden) expect(cli).toContain(`--${row.flag ?? name}`);
    }
    for (const { code } of EXIT_CODES) {
      expect(readme).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
      expect(cli).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    }
  });

  it('starts with the two set-up commands and shows the test command CI runs', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
    expect(read('.ci/run')).toMatch(/^npm test$/m);
  });
});
