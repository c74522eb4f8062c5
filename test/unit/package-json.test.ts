import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8'));

describe('package.json', () => {
  it('allowScripts names every locked package that has an install script, by name alone', () => {
    const pkg = read('package.json') as { allowScripts: Record<string, boolean> };
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const scripted = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(scripted.length).toBeGreaterThan(0);
    // The lockfile keeps no resolved URLs, so npm cannot verify a version: a pinned key (name@1.2.3)
    // would never match, and only a name-only key covers the package.
    for (const name of scripted) expect([name, pkg.allowScripts[name]]).toEqual([name, true]);
    for (const key of Object.keys(pkg.allowScripts)) expect(key).not.toMatch(/.@/);
  });
});
