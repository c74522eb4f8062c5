import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

/** Every module a file imports: static, type-only and dynamic imports, relative ones resolved to .ts. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map(
    (m) => m[1] ?? '',
  );
  return specifiers.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

/** The cycles of an import graph, each as the modules around it. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (state.get(to) === 'open') cycles.push(stack.slice(stack.indexOf(to)));
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('architecture: imports point one way', () => {
  it('has no import cycle anywhere in src (type-only and dynamic imports included)', () => {
    const sources = files(join(root, 'src'));
    const graph = new Map(sources.map((file) => [relative(join(root, 'src'), file), importsOf(file)]));
    for (const [file, imports] of graph)
      graph.set(
        file,
        imports.map((to) => relative(join(root, 'src'), to)),
      );
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('sees type-only and dynamic imports, and finds a cycle when there is one', () => {
    const cli = join(root, 'src/cli');
    expect(importsOf(join(cli, 'flags.ts'))).toContain(join(cli, 'command-table.ts')); // import type
    expect(importsOf(join(cli, 'program.ts'))).toContain(join(cli, 'commands/download.ts')); // import()
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('the library never exits, prints, reads the environment or imports the CLI or the emulator', () => {
    for (const file of files(join(root, 'src/core'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/process\.exit|process\.env|console\.|from '(\.\.\/)+(cli|emulator)\//);
    }
  });

  it('the emulator imports nothing from core or cli', () => {
    for (const file of files(join(root, 'src/emulator'))) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/from '\.\.\/(core|cli)\//);
    }
  });

  it('importing mdget registers no process handlers and prints nothing', async () => {
    const lib = pathToFileURL(join(root, 'dist/index.js')).href;
    // Node itself adds an 'exit' listener while top-level await runs: compare with a probe importing nothing.
    const probe = (target: string) =>
      `await import('${target}'); console.log(process.listenerCount('exit'), process.listenerCount('SIGINT'))`;
    const run = (code: string) => promisify(execFile)(process.execPath, ['--input-type=module', '-e', code]);
    const baseline = await run(probe('node:os'));
    const { stdout, stderr } = await run(probe(lib));
    expect([stdout.trim(), stderr]).toEqual([baseline.stdout.trim(), '']);
  });

  it('each folder of src/core imports only what docs/architecture.md allows it', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const allowed = new Map<string, string[]>();
    for (const [, folder, rule] of doc.matchAll(/^\| `src\/core\/([a-z]+)\/` \| [^|]+ \| ([^|]+) \|$/gm)) {
      const names = [...(rule ?? '').matchAll(/`([a-z]+)`/g)].map((m) => m[1] ?? '');
      allowed.set(folder ?? '', /all of the above/.test(rule ?? '') ? [...allowed.keys()] : names);
    }
    expect([...allowed.keys()].sort()).toEqual(
      readdirSync(join(root, 'src/core'))
        .filter((name) => statSync(join(root, 'src/core', name)).isDirectory())
        .sort(),
    );
    const wrong: string[] = [];
    for (const [folder, may] of allowed)
      for (const file of files(join(root, 'src/core', folder)))
        for (const to of importsOf(file)) {
          const [target] = relative(join(root, 'src/core'), to).split(/[\\/]/);
          if (target !== folder && !may.includes(target ?? ''))
            wrong.push(`${relative(root, file)} -> ${target}`);
        }
    expect(wrong).toEqual([]);
  });

  it('every file docs/architecture.md names exists', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const named = [...doc.matchAll(/`((?:src|bin|test)\/[^`\s]*)`/g)].map((m) => m[1] ?? '');
    expect(named.length).toBeGreaterThan(40);
    for (const path of named)
      expect(statSync(join(root, path), { throwIfNoEntry: false }), path).toBeDefined();
  });
});
