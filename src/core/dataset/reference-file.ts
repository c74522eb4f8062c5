/**
 * The [reference] table of a dataset file: the exchanges list and the instruments files of some
 * exchanges, each path under root with the format its extension names.
 */
import type { ReferenceFile } from './dataset.js';
import { REFERENCE_FORMATS } from './path-formats.js';
import { type Checking, outputOf, tableOf, unknownKeys } from './table-checks.js';

const REFERENCE_KEYS = ['exchanges', 'instruments'];
const INSTRUMENTS_KEYS = ['exchanges', 'path'];

export function checkReference(value: unknown, ctx: Checking): ReferenceFile[] {
  if (value === undefined) return [];
  const table = tableOf(value, ['reference'], 'the [reference] table', ctx.fail);
  unknownKeys(table, REFERENCE_KEYS, ['reference'], ctx.fail);
  const files: ReferenceFile[] = [];
  const exchanges = table['exchanges'];
  if (exchanges !== undefined) {
    const key = ['reference', 'exchanges'];
    if (typeof exchanges !== 'string')
      throw ctx.fail(key, 'reference.exchanges takes a path as a string, such as "reference/exchanges.csv"');
    const path = outputOf(exchanges, ctx.root, (m) => ctx.fail(key, `reference.exchanges: ${m}`));
    const format = REFERENCE_FORMATS.exchanges(exchanges, (m) => ctx.fail(key, `reference.exchanges: ${m}`));
    files.push({ kind: 'exchanges', path, format, where: ctx.at(key) });
  }
  const instruments = table['instruments'];
  if (instruments !== undefined) {
    const key = ['reference', 'instruments'];
    const fail = (sub: string, m: string) => ctx.fail([...key, sub], `reference.instruments.${sub}: ${m}`);
    const spec = tableOf(instruments, key, 'reference.instruments', ctx.fail);
    unknownKeys(spec, INSTRUMENTS_KEYS, key, ctx.fail);
    const list = spec['exchanges'];
    if (!Array.isArray(list) || list.length === 0 || !list.every((e) => typeof e === 'string' && e.trim()))
      throw fail('exchanges', 'takes a list of exchange ids or descriptions, as ["CME"]');
    const path = spec['path'];
    if (typeof path !== 'string')
      throw fail('path', 'takes a template such as "reference/instruments-{exchange}.sqlite"');
    if (list.length > 1 && !path.includes('{exchange}'))
      throw fail(
        'path',
        `${path} has no {exchange}: the files of ${list.length} exchanges would fold into one`,
      );
    const format = REFERENCE_FORMATS.instruments(path, (m) => fail('path', m));
    const template = outputOf(path.replaceAll('{exchange}', 'EXCHANGE'), ctx.root, (m) => fail('path', m));
    for (const exchange of list as string[]) {
      const file = template.replaceAll('EXCHANGE', exchange.replace(/[^A-Za-z0-9._-]/g, '_'));
      files.push({ kind: 'instruments', exchange, path: file, format, where: ctx.at([...key, 'path']) });
    }
  }
  return files;
}
