import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withCommandTables } from '../../src/cli/readme-tables.js';
import { COMMAND_PARAMS } from '../../src/core/params.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('has the flag tables generated from the parameter tables (run `npm run readme` after changing them)', () => {
    expect(readme).toBe(withCommandTables(readme));
  });

  it('names every declared flag and query parameter', () => {
    for (const specs of Object.values(COMMAND_PARAMS)) {
      for (const spec of specs) {
        expect(readme).toContain(`--${spec.flag}`);
        if (spec.query) expect(readme).toContain(`${spec.query}=`);
      }
    }
  });

  it('starts with the two set-up commands and shows the test command CI runs', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
    expect(readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8')).toMatch(/^npm test$/m);
  });
});
