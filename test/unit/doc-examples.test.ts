import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';

// The library's examples in the README and the docs compile under `strict` against the types the package
// ships (dist/, which npm test builds first), so a record type that does not fit what the examples do (bar.close, tick.size >= 100) fails here.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = ['README.md', 'docs/library.md', 'docs/dataset.md', 'docs/parquet.md'];

interface Example {
  page: string;
  line: number;
  lang: 'js' | 'ts';
  code: string;
}

/** Every js or ts block of a page that uses the library. */
function examplesOf(page: string): Example[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const found: Example[] = [];
  for (const match of text.matchAll(/```(js|ts)\n([\s\S]*?)```/g)) {
    const code = match[2] ?? '';
    if (!/\bclient\b|createClient|from 'mdget'/.test(code)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    found.push({ page, line, lang: match[1] as 'js' | 'ts', code });
  }
  return found;
}

// What the examples take as given: fragments use a client, a config, credentials and a stream.
const GIVEN: Record<string, string> = {
  createClient: "import { createClient } from 'mdget';",
  isMdgetError: "import { isMdgetError } from 'mdget';",
  readFileSync: "import { readFileSync } from 'node:fs';",
};
const DECLARED = `
declare const client: import('mdget').Client;
declare const config: import('mdget').Config;
declare const username: string, password: string, historicalUrl: string;
declare const stream: NodeJS.WritableStream;
`;

/** The example as a module: its imports first, its body in an async function so fragments may await. */
function moduleOf(example: Example): string {
  const lines = example.code.split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  const body = lines.filter((line) => !line.startsWith('import '));
  const given = Object.entries(GIVEN)
    .filter(([name, line]) => !imports.some((i) => i.includes(name)) && line)
    .map(([, line]) => line);
  return [...imports, ...given, DECLARED, 'export async function example() {', ...body, '}', ''].join('\n');
}

describe('the library examples of the README and the docs', () => {
  const examples = PAGES.flatMap(examplesOf);

  it('are found: the README, library, dataset and Parquet pages each have some', () => {
    expect(new Set(examples.map((e) => e.page))).toEqual(new Set(PAGES));
  });

  it('compile under strict against the package types', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'examples'));
    const files = examples.map((example, i) => {
      const file = join(dir, 'examples', `example-${i}.ts`);
      writeFileSync(file, moduleOf(example));
      return { file, example };
    });
    const diagnostics: string[] = [];
    // A catch variable has no type in JavaScript, so js examples are checked as TypeScript without
    // unknown catch variables; ts examples get every strict check.
    for (const lang of ['js', 'ts'] as const) {
      const program = ts.createProgram(
        files.filter((f) => f.example.lang === lang).map((f) => f.file),
        {
          strict: true,
          useUnknownInCatchVariables: lang === 'ts',
          noEmit: true,
          skipLibCheck: true,
          target: ts.ScriptTarget.ES2022,
          lib: ['lib.es2023.d.ts'],
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
          module: ts.ModuleKind.NodeNext,
          moduleResolution: ts.ModuleResolutionKind.NodeNext,
          baseUrl: ROOT,
          paths: { mdget: [join(ROOT, 'dist/index.d.ts')] },
        },
      );
      for (const d of ts.getPreEmitDiagnostics(program)) {
        const source = files.find((f) => f.file === d.file?.fileName);
        const where = source ? `${source.example.page}:${source.example.line}` : (d.file?.fileName ?? '');
        diagnostics.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
      }
    }
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
