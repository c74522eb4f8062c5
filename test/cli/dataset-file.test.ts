import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// Every mistake in a dataset file is one line naming the file, the line and the key, exit 2 (3 for a
// credential), and no request: the whole file is checked and every series planned before anything is sent.
const BASE = `[[series]]
name = "a"
kind = "ticks"
symbols = ["ESM25"]
start = "2025-03-10"
end = "2025-03-12"
path = "t/{symbol}-{date}.csv"`;

const second = BASE.replace('name = "a"', 'name = "b"');

/** [what, file text, exit, the line named, a fragment of the message] */
const MISTAKES: [string, string, number, number | undefined, string][] = [
  ['unknown top-level key', `rot = "data"\n${BASE}`, 2, 1, 'unknown key rot (did you mean root?)'],
  ['unknown kind', BASE.replace('"ticks"', '"tick"'), 2, 3, 'kind "tick": expected one of ticks'],
  ['bad date', BASE.replace('2025-03-10', '2025-13-01'), 2, 5, "start '2025-13-01': use YYYY-MM-DD"],
  ['no start', BASE.replace('start = "2025-03-10"', ''), 2, 1, 'start is required'],
  ['no name', BASE.replace('name = "a"', ''), 2, 1, 'every series needs a name'],
  ['a name twice', `${BASE}\n${BASE}`, 2, 9, 'series name "a" is given twice'],
  ['unknown series key', `${BASE}\npath2 = 1`, 2, 8, 'unknown key path2 (did you mean path?)'],
  ['a misspelt series key', `${BASE}\nsymbol = 1`, 2, 8, 'unknown key symbol (did you mean symbols?)'],
  ['two series, one path', `${BASE}\n${second}`, 2, 14, 'which series a writes too'],
  [
    'two symbols folded into one file',
    BASE.replace('["ESM25"]', '["ESM25", "NQM25"]').replace('{symbol}-', ''),
    2,
    7,
    'has no {symbol}: the files of 2 symbols would fold into one',
  ],
  ['unknown placeholder', BASE.replace('{symbol}', '{sym}'), 2, 7, 'unknown placeholder {sym}'],
  ['a path leaving root', BASE.replace('t/', '../../'), 2, 7, 'leaves root'],
  ['an absolute path', BASE.replace('t/', '/tmp/'), 2, 7, 'give it relative to root'],
  ['a path into the ledger folder', BASE.replace('t/', '.mdget/'), 2, 7, '.mdget holds the ledger'],
  ['an unknown extension', BASE.replace('.csv', '.xlsx'), 2, 7, 'its extension sets the format'],
  ['{ext} in a path', BASE.replace('.csv', '.{ext}'), 2, 7, 'write the extension itself'],
  [
    'an unknown option',
    `${BASE}\noptions = { session-filtr = "+T" }`,
    2,
    8,
    'options.session-filtr: not an option of ticks',
  ],
  [
    'an option of another kind',
    `${BASE.replace('"ticks"', '"eod"')}\noptions = { interval = "5m" }`,
    2,
    8,
    'options.interval: not an option of eod',
  ],
  ['an option sync sets', `${BASE}\noptions = { force = true }`, 2, 8, 'options.force: set by mdget sync'],
  [
    'a bad duration',
    `${BASE}\noptions = { window = "1 fortnight" }`,
    2,
    8,
    "options.window '1 fortnight': expected a duration",
  ],
  ['an unknown zone', `${BASE}\ntz = "Mars/Base"`, 2, 8, "tz 'Mars/Base': not an IANA time zone"],
  ['no symbols', BASE.replace('["ESM25"]', '[]'), 2, 4, 'symbols holds no symbol'],
  [
    'symbols and symbols_file',
    `${BASE}\nsymbols_file = "s.txt"`,
    2,
    8,
    'symbols and symbols_file exclude each other',
  ],
  ['end before start', BASE.replace('2025-03-12', '2025-03-01'), 2, 6, 'end 2025-03-01 must be after'],
  ['not TOML', BASE.replace('"2025-03-10"', '"2025-03-10'), 2, 5, 'not valid TOML'],
  ['series not tables', 'series = 3', 2, 1, 'series takes [[series]] tables'],
  [
    'instruments of two exchanges into one file',
    '[reference]\ninstruments = { exchanges = ["CME", "NYMEX"], path = "r/i.ndjson" }',
    2,
    2,
    'has no {exchange}',
  ],
  ['nothing to keep', '', 2, undefined, 'nothing to keep'],
  [
    'a password',
    `password = "x"\n${BASE}`,
    3,
    1,
    'password: credentials and base URLs come from the environment',
  ],
  [
    'a base URL in options',
    `${BASE}\noptions = { historical-url = "http://x" }`,
    3,
    8,
    'historical-url: credentials',
  ],
];

describe('mistakes in the dataset file', () => {
  it(`each of ${MISTAKES.length} is one line with file, line and key, exit 2 (3 for credentials), no request`, async () => {
    await withEmulator({}, async (emu) => {
      const runs = [];
      for (const [what, text, code, line, fragment] of MISTAKES) {
        const dir = tempDir();
        writeFileSync(join(dir, 'mdget.toml'), `${text}\n`);
        // In process, one after another: each run moves into its own directory.
        const run = await runMain(['sync'], { cwd: dir, env: emu.env });
        runs.push({ what, run, code, line, fragment, dir });
      }
      for (const { what, run, code, line, fragment, dir } of await Promise.all(runs)) {
        expect(run.code, what).toBe(code);
        expect(run.stderr.trim().split('\n'), what).toHaveLength(1);
        expect(run.stderr, what).toContain(
          `mdget: ${join(dir, 'mdget.toml')}${line === undefined ? '' : `:${line}`}: `,
        );
        expect(run.stderr, what).toContain(fragment);
      }
      expect(emu.requests).toHaveLength(0);
    });
  }, 60_000);

  it('a missing dataset file names it and how to write one', async () => {
    const run = await runMain(['status']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/mdget\.toml: no dataset file here; write one \(docs\/dataset\.md\)/);
  });
});
