import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Emulator, type Fault, generateCapture } from '../../src/emulator/index.js';
import { CANARY_ACCOUNT, expectNoCanary, fetchBytes, requestsTo } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { openDb } from '../helpers/sqlite.js';
import { withEmulator } from '../helpers/with-emulator.js';

// CME's file holds this id as a JSON string; a float would read it as ...992
// (docs/service.md#json-conventions).
const BIG_ID = '9007199254740993';
const CME_IDS = [
  '4917813436427451121',
  '4917813436427451122',
  '4917813436427440001',
  BIG_ID,
  '4917813436427452001',
  '4917813436427470003',
  '4917813436427470004',
  '5764607523034230001',
  '5764607523034230002',
];

const captureText = (options: Parameters<typeof generateCapture>[0]) =>
  `${generateCapture(options).join('\n')}\n`;
const csvRows = (text: string) => text.trimEnd().split('\n');
const noRequests = (emu: Emulator) => expect(emu.requests).toEqual([]);

describe.concurrent('mdget exchanges', () => {
  it('csv when piped, typed json and ndjson, a table on request; no credentials sent, gzip decoded', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const csv = await runMain(['exchanges'], { env: emu.env });
      expect(csv.code).toBe(0);
      const rows = csvRows(csv.stdout);
      expect(rows[0]).toBe(
        'id,feedcode,delay,description,data_frequency,snapshot_frequency,codes,feewaiver,freedelayed,timezone_local,timezone_feed,eod_release_time,eod_cutoff_time',
      );
      expect(rows).toHaveLength(15);
      expect(rows[1]).toBe(
        'CME,M,10,CME Globex,1,5,"CME,XCME",false,no,America/Chicago,America/Chicago,17:30:00,16:00:00',
      );
      expect(rows).toContain('OTC PINK,P,,OTC Pink Open Market,,,,false,yes,America/New_York,,,');

      const json = await runMain(['exchanges', '--format', 'json'], { env: emu.env });
      expect(json.code).toBe(0);
      const list = JSON.parse(json.stdout) as Record<string, unknown>[];
      expect(list.map((e) => e.id)).toEqual(rows.slice(1).map((r) => r.split(',')[0]));
      expect(list[0]).toMatchObject({
        id: 'CME',
        delay: 10,
        dataFrequency: 1,
        snapshotFrequency: 5,
        codes: ['CME', 'XCME'],
        feeWaiver: false,
        freeDelayed: 'no',
        timezoneLocal: 'America/Chicago',
        eodReleaseTime: '17:30:00',
      });
      expect(list.find((e) => e.id === 'NYSE')).toMatchObject({
        delay: 15,
        feeWaiver: true,
        freeDelayed: 'yes',
      });
      const pink = list.find((e) => e.id === 'OTC PINK');
      expect(pink).toMatchObject({ codes: [], freeDelayed: 'yes' });
      expect(pink).not.toHaveProperty('delay');
      expect(list.find((e) => e.id === 'ICEEU')).toMatchObject({ extra: { region: 'EU' } });

      const ndjson = await runMain(['exchanges', '--format', 'ndjson'], { env: emu.env });
      expect(
        ndjson.stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual(list);

      const table = await runMain(['exchanges', '--format', 'table'], { env: emu.env });
      expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+DESCRIPTION\s+FEED\s+DELAY\s+CODES\s+TIMEZONE$/);
      expect(table.stdout).toMatch(/^CME\s+CME Globex\s+M\s+10\s+CME,XCME\s+America\/Chicago$/m);

      const extras = requestsTo(emu, 'exchanges.php');
      expect(extras).toHaveLength(4);
      for (const request of extras) {
        expect(request.rawQuery).toBe('');
        expect(request.headers['accept-encoding']).toMatch(/gzip/);
      }
      for (const run of [csv, json, ndjson, table]) expectNoCanary(run);
    });
  });

  it('--format xml passes the service bytes through, decoded; --find cannot filter it (exit 2)', async () => {
    await withEmulator({ exchangesEncoding: 'iso-8859-1' }, async (emu) => {
      const xml = await runMain(['exchanges', '--format', 'xml'], { env: emu.env });
      expect(xml.code).toBe(0);
      expect(xml.stdoutBytes.equals(await fetchBytes(`${emu.urls.extras}/exchanges.php`))).toBe(true);
      expect(xml.stdoutBytes.includes(Buffer.from('Zürich', 'latin1'))).toBe(true);
      // The prolog's ISO-8859-1 is honoured when the list is typed.
      const json = await runMain(['exchanges', '--format', 'json', '--find', 'eurex'], { env: emu.env });
      expect(JSON.parse(json.stdout)).toMatchObject([
        { id: 'EUREX', description: 'Eurex Deutschland & Zürich' },
      ]);

      const before = emu.requests.length;
      const refused = await runMain(['exchanges', '--format', 'xml', '--find', 'cme'], { env: emu.env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^mdget: --find cannot filter --format xml.*\n$/);
      expect(emu.requests).toHaveLength(before);
    });
  });

  it('--find matches id or description, case-insensitive; no match is an empty list with a note', async () => {
    await withEmulator({}, async (emu) => {
      const ids = async (text: string) => {
        const run = await runMain(['exchanges', '--find', text, '--format', 'ndjson'], { env: emu.env });
        expect(run.code).toBe(0);
        return run.stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line).id);
      };
      expect(await ids('ice futures')).toEqual(['ICEUS', 'ICEEU']);
      expect(await ids('cme')).toEqual(['CME']);
      expect(await ids('MERCANTILE')).toEqual(['NYMEX']);
      const none = await runMain(['exchanges', '--find', 'atlantis'], { env: emu.env });
      expect([none.code, csvRows(none.stdout)]).toEqual([0, [expect.stringMatching(/^id,feedcode,/)]]);
      expect(none.stderr).toMatch(/no exchange matches "atlantis"/);
    });
  });

  it('-o writes atomically; an existing file is refused (exit 6) before any request; --force replaces it', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const file = join(dir, 'exchanges.json');
      writeFileSync(file, 'precious\n');
      const refused = await runMain(['exchanges', '--format', 'json', '-o', file], { env: emu.env });
      expect(refused.code).toBe(6);
      expect(refused.stderr).toMatch(/exchanges\.json exists: pass --force/);
      noRequests(emu);
      expect(readFileSync(file, 'utf8')).toBe('precious\n');
      const forced = await runMain(['exchanges', '--format', 'json', '-o', file, '--force'], {
        env: emu.env,
      });
      expect([forced.code, forced.stdout]).toEqual([0, '']);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(14);
      expect(readdirSync(dir)).toEqual(['exchanges.json']);
    });
  });

  it.each<[string, Fault, number, RegExp]>([
    ['an HTML page → exit 5', { kind: 'html' }, 5, /server sent an HTML page instead of data/],
    ['a reset mid-body → exit 5', { kind: 'truncate', afterBytes: 300 }, 5, /truncated body/],
    ['HTTP 503 every time → exit 5', { kind: 'status', status: 503 }, 5, /server failure after 1 attempt/],
    ['a broken document → exit 4', { kind: 'errorAfterData', message: 'Error: boom' }, 4, /malformed XML/],
  ])('a failed list: %s; no file left', async (_name, fault, code, message) => {
    await withEmulator({ ...CANARY_ACCOUNT, faults: [fault] }, async (emu) => {
      const dir = tempDir();
      const run = await runMain(['exchanges', '-o', join(dir, 'x.csv'), '--retries', '0'], { env: emu.env });
      expect([run.code, run.stdout]).toEqual([code, '']);
      expect(run.stderr).toMatch(message);
      expect(readdirSync(dir)).toEqual([]);
      expectNoCanary(run, dir);
    });
  });

  it('needs only the extras base URL: missing → exit 3 before any request', async () => {
    await withEmulator({}, async (emu) => {
      const { MDGET_EXTRAS_URL: _, ...env } = emu.env;
      const run = await runMain(['exchanges'], { env });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/MDGET_EXTRAS_URL/);
      const bare = await runMain(['exchanges', '--format', 'ndjson'], {
        env: { MDGET_EXTRAS_URL: emu.urls.extras },
      });
      expect(bare.code).toBe(0);
      expect(requestsTo(emu, 'exchanges.php')).toHaveLength(1);
    });
  });
});

describe.concurrent('mdget instruments', () => {
  it('by id (any case) or by description: the same tables; only the base URLs, no credentials', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const byId = await runMain(['instruments', 'CME'], { env: emu.env });
      expect(byId.code).toBe(0);
      const entries = byId.stdout.trimEnd().split('\n');
      expect(entries.map((line) => /^\{"marketId":"(\d+)"/.exec(line)?.[1])).toEqual(CME_IDS);
      const lower = await runMain(['instruments', 'cme'], { env: emu.env });
      const described = await runMain(['instruments', 'CME Globex'], { env: emu.env });
      const substring = await runMain(['instruments', 'chicago board'], { env: emu.env });
      expect(lower.stdout).toBe(byId.stdout);
      expect(described.stdout).toBe(byId.stdout);
      expect(substring.code).toBe(0);
      expect(substring.stdout).toMatch(/^\{"marketId":"4917813436427460002"/);
      // An id with a space goes out percent-encoded (docs/service.md#instruments-files).
      const pink = await runMain(['instruments', 'OTC PINK', '--format', 'csv'], { env: emu.env });
      expect(pink.code).toBe(0);
      expect(csvRows(pink.stdout)[1]).toMatch(/^3000000000000000501,ABCDF,OTCM,EQUITY,/);
      const files = emu.requests.filter((r) => r.path.endsWith('-instruments.json'));
      expect(files.map((r) => r.path)).toEqual([
        '/instruments/CME-instruments.json',
        '/instruments/CME-instruments.json',
        '/instruments/CME-instruments.json',
        '/instruments/CBOT-instruments.json',
        '/instruments/OTC%20PINK-instruments.json',
      ]);
      for (const request of emu.requests) expect(request.rawQuery).toBe('');
      for (const run of [byId, lower, described, substring, pink]) expectNoCanary(run);

      const { MDGET_USERNAME: _u, MDGET_PASSWORD: _p, MDGET_HISTORICAL_URL: _h, ...bases } = emu.env;
      const bare = await runMain(['instruments', 'CME'], { env: bases });
      expect(bare.stdout).toBe(byId.stdout);
      const { MDGET_INSTRUMENTS_URL: _i, ...noInstruments } = emu.env;
      const before = emu.requests.length;
      const missing = await runMain(['instruments', 'CME'], { env: noInstruments });
      expect(missing.code).toBe(3);
      expect(missing.stderr).toMatch(/MDGET_INSTRUMENTS_URL/);
      expect(emu.requests).toHaveLength(before);
    });
  });

  it('an ambiguous description exits 2 listing the candidates, without an instruments request; so does no match', async () => {
    await withEmulator({}, async (emu) => {
      const ambiguous = await runMain(['instruments', 'ICE Futures', '-o', join(tempDir(), 'x.ndjson')], {
        env: emu.env,
      });
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toBe(
        'mdget: "ICE Futures" matches 2 exchanges: ICEUS (ICE Futures U.S.), ICEEU (ICE Futures Europe); give an exact id\n',
      );
      const none = await runMain(['instruments', 'Atlantis'], { env: emu.env });
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/^mdget: no exchange matches "Atlantis" by id or description;.*\n$/);
      expect(emu.requests.map((r) => r.path)).toEqual(['/extras/exchanges.php', '/extras/exchanges.php']);
    });
  });

  it('usage errors before anything is sent: sqlite to stdout, --table outside csv, no exchange, both sources', async () => {
    await withEmulator({}, async (emu) => {
      const cases = [
        [['instruments', 'CME', '--format', 'sqlite'], /^mdget: --format sqlite needs -o <file>.*\n$/],
        [
          ['instruments', 'CME', '--format', 'json', '--table', 'symbols'],
          /--table applies to --format csv and parquet only/,
        ],
        [['instruments'], /missing <exchange>/],
        [['instruments', 'CME', '--from-capture', 'x.ndjson'], /either <exchange> or --from-capture/],
        [['instruments', 'CME', '--format', 'xml'], /argument 'xml' is invalid/],
      ] as const;
      for (const [args, message] of cases) {
        const run = await runMain(args, { env: emu.env });
        expect([run.code, run.stdout], args.join(' ')).toEqual([2, '']);
        expect(run.stderr).toMatch(message);
      }
      noRequests(emu);
    });
  });

  it('every format; an id above 2^53 stays byte-exact in ndjson, csv, json and sqlite', async () => {
    await withEmulator({}, async (emu) => {
      const run = (...args: string[]) => runMain(['instruments', 'CME', ...args], { env: emu.env });
      const ndjson = await run('--format', 'ndjson');
      expect(ndjson.stdout).toContain(`{"marketId":"${BIG_ID}",`);
      expect(ndjson.stdout.trimEnd().split('\n')).toHaveLength(9);

      const instruments = await run('--format', 'csv');
      const rows = csvRows(instruments.stdout);
      expect(rows[0]).toMatch(/^market_id,symbol,exchange_code,instrument_type,description,/);
      expect(rows.map((r) => r.split(',')[0]).slice(1)).toEqual(CME_IDS);
      expect(rows.find((r) => r.startsWith(`${BIG_ID},`))).toMatch(
        /^9007199254740993,NQM5,XCME,FUTURE,E-Mini Nasdaq-100,/,
      );
      const symbols = await run('--format', 'csv', '--table', 'symbols');
      expect(csvRows(symbols.stdout)[0]).toBe('market_id,vendor,symbol,long_symbol');
      expect(csvRows(symbols.stdout)).toContain(`${BIG_ID},VENDOR,NQM25,NQM2025`);
      const legs = await run('--format', 'csv', '--table', 'spread_legs');
      expect(csvRows(legs.stdout)).toEqual([
        'market_id,leg_index,leg_market_id,ratio,symbol',
        '4917813436427470003,0,4917813436427451121,1,ESM5',
        '4917813436427470003,1,4917813436427451122,-1,ESU5',
        '4917813436427470004,0,4917813436427451121,2,ESM5',
        '4917813436427470004,1,4917813436427451122,-3,ESU5',
      ]);

      const json = await run('--format', 'json');
      expect(json.stdout).toContain(`{"market_id":"${BIG_ID}","symbol":"NQM5"`);
      const parsed = JSON.parse(json.stdout) as Record<string, unknown>[];
      expect(parsed.map((r) => r.market_id)).toEqual(CME_IDS);
      expect(parsed.find((r) => r.market_id === '5764607523034230001')).toMatchObject({
        option_strike: '5600',
        option_type: 'CALL',
        underlying_market_id: '4917813436427451121',
      });

      const dir = tempDir();
      const db = join(dir, 'cme.db');
      const sqlite = await run('--format', 'sqlite', '-o', db);
      expect([sqlite.code, sqlite.stdout]).toEqual([0, '']);
      const database = openDb(db);
      try {
        expect(
          database
            .prepare('SELECT market_id, typeof(market_id) AS type FROM instruments WHERE market_id = ?')
            .get(BIG_ID),
        ).toEqual({ market_id: BIG_ID, type: 'text' });
        expect(database.prepare('SELECT market_id FROM instruments ORDER BY rowid').pluck().all()).toEqual(
          CME_IDS,
        );
      } finally {
        database.close();
      }
    });
  });

  it('sqlite: tables, primary keys and indexes; written atomically; an existing file → exit 6 before any request', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const db = join(dir, 'sub', 'cbot.db');
      const first = await runMain(['instruments', 'CBOT', '--format', 'sqlite', '-o', db], { env: emu.env });
      expect(first.code).toBe(0);
      expect(readdirSync(join(dir, 'sub'))).toEqual(['cbot.db']);
      const database = openDb(db);
      try {
        const master = database
          .prepare(
            "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name",
          )
          .all();
        expect(master).toEqual([
          { type: 'table', name: 'instruments', tbl_name: 'instruments' },
          { type: 'index', name: 'instruments_exchange_code', tbl_name: 'instruments' },
          { type: 'index', name: 'instruments_symbol', tbl_name: 'instruments' },
          { type: 'table', name: 'spread_legs', tbl_name: 'spread_legs' },
          { type: 'index', name: 'spread_legs_leg_market_id', tbl_name: 'spread_legs' },
          { type: 'table', name: 'symbols', tbl_name: 'symbols' },
          { type: 'index', name: 'symbols_symbol', tbl_name: 'symbols' },
        ]);
        const primaryKey = (table: string) =>
          (database.prepare(`PRAGMA table_info(${table})`).all() as { name: string; pk: number }[])
            .filter((c) => c.pk > 0)
            .sort((a, b) => a.pk - b.pk)
            .map((c) => c.name);
        expect(primaryKey('instruments')).toEqual(['market_id']);
        expect(primaryKey('symbols')).toEqual(['market_id', 'vendor', 'symbol']);
        expect(primaryKey('spread_legs')).toEqual(['market_id', 'leg_index']);
        expect(database.prepare('SELECT count(*) FROM instruments').pluck().get()).toBe(4);
        expect(
          database
            .prepare("SELECT option_strike FROM instruments WHERE market_id = '5764607523034234881'")
            .pluck()
            .get(),
        ).toBe('470');
      } finally {
        database.close();
      }

      const before = emu.requests.length;
      const refused = await runMain(['instruments', 'CME', '--format', 'sqlite', '-o', db], { env: emu.env });
      expect(refused.code).toBe(6);
      expect(refused.stderr).toMatch(/cbot\.db exists: pass --force/);
      expect(emu.requests).toHaveLength(before);

      const forced = await runMain(['instruments', 'CME', '--format', 'sqlite', '-o', db, '--force'], {
        env: emu.env,
      });
      expect(forced.code).toBe(0);
      const replaced = openDb(db);
      expect(replaced.prepare('SELECT count(*) FROM instruments').pluck().get()).toBe(9);
      replaced.close();
      expect(readdirSync(join(dir, 'sub'))).toEqual(['cbot.db']);
    });
  });

  it.each<[string, Fault, number, RegExp]>([
    [
      'HTTP 404 → exit 4 naming the exchange',
      { kind: 'status', status: 404 },
      4,
      /^mdget: exchange CME \(CME Globex\): no instruments file \(HTTP 404\) http:\/\/\S+\/CME-instruments\.json(: .*)?$/m,
    ],
    [
      'HTTP 503 every time → exit 5 after the retries',
      { kind: 'status', status: 503 },
      5,
      /server failure after 2 attempt\(s\): HTTP 503/,
    ],
    [
      'a connection reset mid-body → exit 5',
      { kind: 'reset', afterBytes: 500 },
      5,
      /truncat|terminated|closed|socket|reset/i,
    ],
    ['gzip without its trailer → exit 5', { kind: 'badGzip' }, 5, /truncated body/],
    ['an HTML page → exit 5', { kind: 'html' }, 5, /server sent an HTML page instead of data/],
    [
      'an Error line after data → exit 4',
      { kind: 'errorAfterData', message: 'Error: boom' },
      4,
      /instruments: malformed JSON/,
    ],
  ])('%s; no file, no .part, nothing leaked', async (_name, fault, code, message) => {
    const faults = [{ ...fault, path: 'CME-instruments.json' }];
    await withEmulator({ ...CANARY_ACCOUNT, faults }, async (emu) => {
      const dir = tempDir();
      const args = ['instruments', 'CME Globex', '--format', 'sqlite', '-o', join(dir, 'cme.db')];
      const run = await runMain([...args, '--retries', '1', '--verbose'], { env: emu.env });
      expect(run.code).toBe(code);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.split('\n').filter((line) => !/^mdget: (GET|retry) /.test(line))).toHaveLength(2);
      expect(readdirSync(dir)).toEqual([]);
      expectNoCanary(run, dir);
    });
  });

  it('a failed download leaves an existing file untouched (--force); a 503 once is retried', async () => {
    const faults: Fault[] = [
      { kind: 'reset', afterBytes: 500, path: 'CME-instruments.json', times: 1 },
      { kind: 'status', status: 503, path: 'CBOT-instruments.json', times: 1 },
    ];
    await withEmulator({ faults }, async (emu) => {
      const dir = tempDir();
      const keep = join(dir, 'keep.csv');
      writeFileSync(keep, 'precious\n');
      const forced = await runMain(
        ['instruments', 'CME', '--format', 'csv', '-o', keep, '--force', '--retries', '0'],
        {
          env: emu.env,
        },
      );
      expect(forced.code).toBe(5);
      expect(readFileSync(keep, 'utf8')).toBe('precious\n');
      expect(readdirSync(dir)).toEqual(['keep.csv']);
      const retried = await runMain(['instruments', 'CBOT', '--retries', '1', '--verbose'], { env: emu.env });
      expect(retried.code).toBe(0);
      expect(retried.stderr).toMatch(/^mdget: retry 1 in \d+ ms: HTTP 503/m);
      expect(retried.stdout.trimEnd().split('\n')).toHaveLength(4);
      expect(requestsTo(emu, 'CBOT-instruments.json')).toHaveLength(2);
    });
  });

  it('the BIG exchange (2,000 entries) streams end to end into csv and sqlite', async () => {
    await withEmulator({ instrumentsBigCount: 2000 }, async (emu) => {
      const csv = await runMain(['instruments', 'BIG', '--format', 'csv', '--no-progress'], { env: emu.env });
      expect(csv.code).toBe(0);
      const rows = csvRows(csv.stdout);
      expect(rows).toHaveLength(2001);
      expect(rows[1]).toMatch(/^6917529027641081856,/);
      expect(rows[2000]).toMatch(/^6917529027641083855,/);
      const db = join(tempDir(), 'big.db');
      const sqlite = await runMain(['instruments', 'Synthetic Large', '--format', 'sqlite', '-o', db], {
        env: emu.env,
      });
      expect(sqlite.code).toBe(0);
      const database = openDb(db);
      expect(database.prepare('SELECT count(*) FROM instruments').pluck().get()).toBe(2000);
      expect(database.prepare('SELECT count(*) FROM spread_legs').pluck().get()).toBe(1000);
      database.close();
      expect(requestsTo(emu, 'BIG-instruments.json')).toHaveLength(2);
    });
  });
});

describe.concurrent('mdget instruments --from-capture', () => {
  it('from a file and from stdin (-): the same tables as the instruments file; the stdin spool is removed', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const capture = join(dir, 'cme.ndjson');
      writeFileSync(
        capture,
        captureText({ exchange: 'CME', count: 9, extraKinds: ['heartBeat', 'marketSnapshot'] }),
      );
      const fromFile = await runMain(['instruments', 'CME'], { env: emu.env });
      const fromFileCsv = await runMain(['instruments', 'CME', '--format', 'csv'], { env: emu.env });
      const requests = emu.requests.length;

      // No configuration at all: a capture needs no service.
      const ndjson = await runMain(['instruments', '--from-capture', capture]);
      expect(ndjson.code).toBe(0);
      expect(ndjson.stdout).toBe(fromFile.stdout);
      const spool = tempDir();
      const csv = await runMain(['instruments', '--from-capture', '-', '--format', 'csv'], {
        input: readFileSync(capture, 'utf8'),
        env: { TMPDIR: spool },
      });
      expect(csv.code).toBe(0);
      expect(csv.stdout).toBe(fromFileCsv.stdout);
      expect(readdirSync(spool)).toEqual([]);
      const db = join(dir, 'cme.db');
      const sqlite = await runMain(['instruments', '--from-capture', '-', '--format', 'sqlite', '-o', db], {
        input: readFileSync(capture, 'utf8'),
        env: { TMPDIR: spool },
      });
      expect(sqlite.code).toBe(0);
      const database = openDb(db);
      expect(database.prepare('SELECT market_id FROM instruments ORDER BY rowid').pluck().all()).toEqual(
        CME_IDS,
      );
      database.close();
      expect(readdirSync(spool)).toEqual([]);
      expect(emu.requests).toHaveLength(requests);
    });
  });

  it('a count mismatch → exit 4 naming exchange, expected and actual counts; nothing written anywhere', async () => {
    const dir = tempDir();
    const capture = join(dir, 'short.ndjson');
    writeFileSync(
      capture,
      captureText({ exchange: 'CME', count: 4, declared: 5, extraKinds: ['heartBeat'] }),
    );
    for (const format of ['csv', 'json', 'sqlite', 'ndjson']) {
      const out = join(dir, `out.${format}`);
      const run = await runMain(['instruments', '--from-capture', capture, '--format', format, '-o', out]);
      expect(run.code, format).toBe(4);
      expect(run.stderr).toBe('mdget: capture: exchange CME announced 5 definitions, got 4\n');
      expect(existsSync(out)).toBe(false);
    }
    expect(readdirSync(dir)).toEqual(['short.ndjson']);
    const spool = tempDir();
    const stdout = await runMain(['instruments', '--from-capture', '-', '--format', 'csv'], {
      input: readFileSync(capture, 'utf8'),
      env: { TMPDIR: spool },
    });
    expect([stdout.code, stdout.stdoutBytes.length]).toEqual([4, 0]);
    expect(readdirSync(spool)).toEqual([]);
    expect(stdout.stderr).toMatch(/exchange CME announced 5 definitions, got 4/);
  });

  it('a non-SUCCESS status → exit 4 with the result and message; nothing written', async () => {
    const dir = tempDir();
    const capture = join(dir, 'refused.ndjson');
    writeFileSync(
      capture,
      captureText({
        exchange: 'NOPE',
        count: 0,
        status: 'INVALID_EXCHANGE',
        message: 'unknown exchange NOPE',
      }),
    );
    const run = await runMain(['instruments', '--from-capture', capture, '-o', join(dir, 'out.ndjson')]);
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      'mdget: capture: exchange NOPE answered with status INVALID_EXCHANGE: unknown exchange NOPE\n',
    );
    expect(readdirSync(dir)).toEqual(['refused.ndjson']);
    const missing = await runMain(['instruments', '--from-capture', join(dir, 'nope.ndjson')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /--from-capture .*nope\.ndjson: cannot read it: no such file or directory$/m,
    );
  });

  it('ids written as bare JSON numbers above 2^53 stay byte-exact in every format', async () => {
    const dir = tempDir();
    const capture = join(dir, 'bare.ndjson');
    writeFileSync(
      capture,
      [
        '{"instrumentResponse":{"correlationId":18446744073709551615,"status":{"result":"SUCCESS"},"numberOfDefinitions":2,"exchange":"CME"}}',
        '{"instrumentDefinition":{"marketId":9007199254740993,"instrumentType":"FUTURE","symbol":"NQM5","exchangeCode":"XCME"}}',
        '{"instrumentDefinition":{"marketId":9223372036854775807,"instrumentType":"SPREAD","symbol":"NQM5-NQU5","spreadLeg":[{"marketId":9007199254740993,"ratio":1,"symbol":"NQM5"},{"marketId":-9007199254740995,"ratio":-1,"symbol":"NQU5"}]}}',
        '',
      ].join('\n'),
    );
    const run = (...args: string[]) => runMain(['instruments', '--from-capture', capture, ...args]);
    const ndjson = await run();
    expect(ndjson.stdout).toBe(
      '{"marketId":9007199254740993,"instrumentType":"FUTURE","symbol":"NQM5","exchangeCode":"XCME"}\n' +
        '{"marketId":9223372036854775807,"instrumentType":"SPREAD","symbol":"NQM5-NQU5","spreadLeg":[{"marketId":9007199254740993,"ratio":1,"symbol":"NQM5"},{"marketId":-9007199254740995,"ratio":-1,"symbol":"NQU5"}]}\n',
    );
    const csv = await run('--format', 'csv');
    expect(csvRows(csv.stdout).map((r) => r.split(',')[0])).toEqual([
      'market_id',
      '9007199254740993',
      '9223372036854775807',
    ]);
    const legs = await run('--format', 'csv', '--table', 'spread_legs');
    expect(csvRows(legs.stdout).slice(1)).toEqual([
      '9223372036854775807,0,9007199254740993,1,NQM5',
      '9223372036854775807,1,-9007199254740995,-1,NQU5',
    ]);
    const json = await run('--format', 'json');
    expect(json.stdout).toContain('{"market_id":"9007199254740993",');
    expect(json.stdout).toContain('{"market_id":"9223372036854775807",');
    expect(json.stdout).toContain('{"leg_index":1,"leg_market_id":"-9007199254740995","ratio":-1,');
    const db = join(dir, 'bare.db');
    expect((await run('--format', 'sqlite', '-o', db)).code).toBe(0);
    const database = openDb(db);
    try {
      expect(database.prepare('SELECT market_id FROM instruments ORDER BY rowid').pluck().all()).toEqual([
        '9007199254740993',
        '9223372036854775807',
      ]);
      expect(
        database.prepare('SELECT leg_market_id FROM spread_legs ORDER BY leg_index').pluck().all(),
      ).toEqual(['9007199254740993', '-9007199254740995']);
    } finally {
      database.close();
    }
  });
});
