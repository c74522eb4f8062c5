import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('exported type names', () => {
  it('each names one type in mdget (CLI and library): a grep for a name finds one declaration', () => {
    const where = new Map<string, string[]>();
    // the emulator is a program of its own that shares nothing with mdget (docs/architecture.md)
    for (const file of sources(SRC).filter((path) => !relative(SRC, path).startsWith('emulator'))) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm)) {
        where.set(name ?? '', [...(where.get(name ?? '') ?? []), relative(SRC, file)]);
      }
    }
    const twice = [...where].filter(([, files]) => files.length > 1);
    expect(twice).toEqual([]);
  });
});
