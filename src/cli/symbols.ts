import { reasonOf, usageError } from '../core/model/errors.js';
import type { Io } from './io.js';

/** Positional symbols plus --symbols-file, checked: no blanks inside, no commas (lists are comma-joined). */
export async function symbolsFrom(
  args: readonly string[],
  file: string | undefined,
  io: Io,
  what = 'symbol',
): Promise<string[]> {
  const symbols = [...args];
  if (file !== undefined) {
    let text: string;
    try {
      // fs/promises loaded only for a file: it loads Node's stream modules, which a dry run does not need
      text =
        file === '-'
          ? await readAll(io.stdin)
          : await (await import('node:fs/promises')).readFile(file, 'utf8');
    } catch (error) {
      throw usageError(`--symbols-file ${file}: cannot read it: ${reasonOf(error)}`);
    }
    for (const line of text.split(/\r?\n/)) {
      const symbol = line.replace(/#.*/, '').trim();
      if (symbol) symbols.push(symbol);
    }
  }
  if (symbols.length === 0)
    throw usageError(`no ${what}s: give them as arguments or with --symbols-file <path>`);
  for (const symbol of symbols) {
    if (!/^[^\s,]{1,64}$/.test(symbol)) {
      throw usageError(`invalid ${what} '${symbol}': expected up to 64 characters without spaces or commas`);
    }
  }
  return symbols;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}
