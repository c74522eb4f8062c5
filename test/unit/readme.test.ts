import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS, type CommandSpec } from '../../src/cli/command-table.js';
import { EXIT_CODES } from '../../src/cli/exit-codes.js';
import { OPTIONS, type OptionSpec } from '../../src/cli/options.js';
import { withReadmeTables } from '../../src/cli/readme-tables.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('has the sections generated from the tables (run `npm run readme` after changing them)', () => {
    expect(readme).toBe(withReadmeTables(readme));
  });

  it('names every command, every declared flag and query parameter, and every exit code', () => {
    for (const spec of COMMANDS as readonly CommandSpec[]) {
      expect(readme).toContain(`mdget ${spec.name}`);
      for (const param of spec.params ?? []) {
        expect(readme).toContain(`--${param.flag}`);
        if (param.query) expect(readme).toContain(`${param.query}=`);
      }
    }
    for (const [name, row] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
      if (!row.hidden) expect(readme).toContain(`--${row.flag ?? name}`);
    }
    for (const { code } of EXIT_CODES) expect(readme).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });

  it('starts with the two set-up commands and shows the test command CI runs', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
    expect(readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8')).toMatch(/^npm test$/m);
  });
});
