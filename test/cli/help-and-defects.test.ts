import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANARY_ACCOUNT, expectNoCanary, requestsTo } from '../helpers/cli-env.js';
import { runCli, runMain, runShell, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// The help a person reads, and the small defects, each against the built binary.

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe.concurrent('mdget help', () => {
  it('mdget --help lists the commands by section and ends with every exit code', async () => {
    const run = await runMain(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: mdget \[options\] \[command\]\n/);
    expect(run.stdout).toMatch(/Download commands:\n {2}ticks \[options\] \[symbol\.\.\.\]/);
    expect(run.stdout).toMatch(/Reference data:\n {2}exchanges \[options\]/);
    expect(run.stdout).toMatch(/Datasets:\n {2}sync \[options\] \[file\]/);
    const tail = run.stdout.slice(run.stdout.lastIndexOf('Exit codes:'));
    expect(tail.match(/^ {2}\d+/gm)?.map(Number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 129, 130, 143]);
    expect(run.stdout.trimEnd().endsWith(tail.trimEnd())).toBe(true);
    expect(await runMain(['help'])).toMatchObject({ code: 0, stdout: run.stdout });
  });

  it('mdget with no command prints the help on stderr and exits 2', async () => {
    const run = await runMain([]);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toMatch(/^Usage: mdget/);
  });

  it('ticks --help: grouped options, defaults in their units, date forms, examples, exit codes', async () => {
    const run = await runMain(['ticks', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: mdget ticks \[options\] \[symbol\.\.\.\]\n/);
    expect(run.stdout).toMatch(/^ {2}symbol +instrument symbols/m); // not "symbols  symbols"
    expect(run.stdout).toMatch(/--timeout <duration> +per-request wait .*\n.*\(default: 60s\)/);
    expect(run.stdout).not.toMatch(/default: 60000|default: "-"|default: \[\]|default: "csv"/);
    expect(run.stdout).toContain('Credentials and configuration:\n  --username <name>');
    expect(run.stdout).not.toMatch(/--extras-url|--instruments-url|--futures-options-url/);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      'Dates (--start, --end): YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], YYYYMMDD[HHMM[SS]], today, yesterday, tomorrow or <n>d',
    );
    expect(run.stdout).toContain('Examples:\n  mdget ticks ESM25');
    expect(run.stdout).toMatch(/^Exit codes: 0 ok, 1 internal error, 2 usage/m);
    expect(await runMain(['help', 'ticks'])).toMatchObject({ code: 0, stdout: run.stdout });
  });

  it('exchanges and instruments list no credentials, and only the base URLs they use', async () => {
    for (const name of ['exchanges', 'instruments']) {
      const run = await runMain([name, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('--extras-url <url>');
      expect(run.stdout).not.toMatch(/--username|--password-stdin|--historical-url|--futures-options-url/);
      expect(run.stdout).toMatch(/--report <path>[\s\S]*--dry-run/);
    }
  });

  it('--help and --version go straight to stdout: a closed reader is exit 0, a full disk exit 6 with one line', async () => {
    const help = (await runMain(['--help'])).stdout;
    expect(await runShell(`"$MDGET" --help | head -c 5`)).toEqual({ code: 0, stdout: 'Usage', stderr: '' });
    expect(await runShell(`"$MDGET" --help | cat`)).toEqual({ code: 0, stdout: help, stderr: '' });
    expect(await runShell(`"$MDGET" --version | cat`)).toEqual({
      code: 0,
      stdout: `${version}\n`,
      stderr: '',
    });
    expect(await runShell(`"$MDGET" --help > /dev/full`)).toEqual({
      code: 6,
      stdout: '',
      stderr: 'mdget: cannot write standard output: ENOSPC\n',
    });
  });

  it('a dry run into a full disk is exit 6 in one line; a stderr that cannot take the window lines loses only them', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const plan = '"$MDGET" ticks ESM25 --start 2025-03-13 --dry-run';
      const full = await runShell(`${plan} > /dev/full`, emu.env);
      expect([full.code, full.stderr.trimEnd().split('\n').at(-1)]).toEqual([
        6,
        'mdget: cannot write standard output: disk full',
      ]);
      const quiet = await runShell(`${plan} 2> /dev/full`, emu.env);
      expect([quiet.code, quiet.stdout]).toEqual([
        0,
        expect.stringMatching(/^http.*queryticks\.ashx\?.*\n$/),
      ]);
      expect(emu.requests).toHaveLength(0);
    });
  });

  it('a start writes nothing: no cache in the cwd, $TMPDIR or $XDG_CACHE_HOME', async () => {
    const [cwd, tmp, xdg] = [tempDir(), tempDir(), tempDir()];
    const run = await runCli(['--version'], { cwd, env: { TMPDIR: tmp, XDG_CACHE_HOME: xdg } });
    expect([run.code, run.stdout, run.stderr]).toEqual([0, `${version}\n`, '']);
    expect([readdirSync(cwd), readdirSync(tmp), readdirSync(xdg)]).toEqual([[], [], []]);
  });

  it('an unknown command gets commander’s suggestion, exit 2', async () => {
    const run = await runMain(['tick', 'ESM25']);
    expect([run.code, run.stderr]).toEqual([2, "mdget: unknown command 'tick'\n(Did you mean ticks?)\n"]);
  });
});

describe.concurrent('small defects', () => {
  it('futopts --json implies the format: the README example writes one JSON file per root', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const cwd = tempDir();
      const run = await runMain(['futopts', 'ZC', 'CL', '--json', '-o', 'fo-{symbol}.json'], {
        env: emu.env,
        cwd,
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      for (const root of ['ZC', 'CL']) {
        expect(() => JSON.parse(readFileSync(join(cwd, `fo-${root}.json`), 'utf8'))).not.toThrow();
      }
      expect(requestsTo(emu, 'futuresoptions/json')).toHaveLength(2);
      expectNoCanary(run, cwd);
    });
  });

  it('an empty --password-stdin is a missing credential: exit 3, no request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const { MDGET_PASSWORD: _, ...env } = emu.env;
      const run = await runMain(['ticks', 'ESM25', '--start', '2025-03-13', '--password-stdin'], {
        env,
        input: '',
      });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/^mdget: --password-stdin: standard input held no password line/);
      expect(emu.requests).toHaveLength(0);
    });
  });

  it('instruments --dry-run prints the exchanges-list request and sends none', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const run = await runMain(['instruments', 'CME', '--dry-run'], { env: emu.env });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${emu.urls.extras}/exchanges.php\n`);
      expect(run.stderr).toContain('<id>-instruments.json');
      const exchanges = await runMain(['exchanges', '--dry-run'], { env: emu.env });
      expect([exchanges.code, exchanges.stdout]).toEqual([0, `${emu.urls.extras}/exchanges.php\n`]);
      expect(emu.requests).toHaveLength(0);
    });
  });

  it('exchanges --report and instruments --report write one entry per request', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const cwd = tempDir();
      const run = await runCli(['exchanges', '--format', 'json', '-o', 'x.json', '--report', 'r.json'], {
        env: emu.env,
        cwd,
      });
      expect(run.code).toBe(0);
      const report = JSON.parse(readFileSync(join(cwd, 'r.json'), 'utf8'));
      expect(report).toMatchObject({
        command: 'exchanges',
        requests: [{ url: `${emu.urls.extras}/exchanges.php`, status: 'ok', output: 'x.json' }],
      });
      expect(report.requests[0].rows).toBeGreaterThan(0);
      const instruments = await runCli(['instruments', 'CME', '-o', 'i.ndjson', '--report', 'i.json'], {
        env: emu.env,
        cwd,
      });
      expect(instruments.code).toBe(0);
      const second = JSON.parse(readFileSync(join(cwd, 'i.json'), 'utf8'));
      expect(second.requests.map((r: { url: string }) => r.url)).toEqual([
        `${emu.urls.extras}/exchanges.php`,
        `${emu.urls.instruments}/CME-instruments.json`,
      ]);
      expect(second.requests[1]).toMatchObject({ status: 'ok', output: 'i.ndjson' });
      expect(second.requests[1].bytes).toBeGreaterThan(0);
      const missing = await runCli(['instruments', 'NOPE', '--report', 'n.json'], { env: emu.env, cwd });
      expect(missing.code).toBe(2);
      const failed = JSON.parse(readFileSync(join(cwd, 'n.json'), 'utf8'));
      expect(failed.requests.at(-1)).toMatchObject({ status: 'failed', error: { code: 'MDGET_USAGE' } });
      expectNoCanary(run, cwd);
    });
  });

  it('mdget config shows a user name that equals the password, and still hides the password', async () => {
    const run = await runMain(['config'], { env: { MDGET_USERNAME: 'demo', MDGET_PASSWORD: 'demo' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^MDGET_USERNAME +demo +environment$/m);
    expect(run.stdout).toMatch(/^MDGET_PASSWORD +\*\*\* +environment$/m);
  });

  it.each([
    [['ticks', 'AAPL', '--param', 'symbol=MSFT'], /--param symbol: give symbols as arguments/],
    [['events', 'AAPL', '--param', 'symbols=MSFT'], /--param symbols: give symbols as arguments/],
    [['futopts', 'ZC', '--param', 'root=CL'], /--param root: give roots as arguments/],
  ])('%j is refused next to the positional: exit 2, no request', async (args, message) => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const run = await runMain(args, { env: emu.env });
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toMatch(message);
      expect(emu.requests).toHaveLength(0);
    });
  });

  it('the "no records" note of events names the first symbols and a count, not the whole list', async () => {
    await withEmulator(CANARY_ACCOUNT, async (emu) => {
      const symbols = Array.from({ length: 300 }, (_, i) => `NOPE${i}`);
      const run = await runMain(['events', ...symbols], { env: emu.env });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('NOPE0,NOPE1,NOPE2,… (');
      expect(run.stderr).not.toContain('NOPE299');
      for (const line of run.stderr.trim().split('\n')) expect(line.length).toBeLessThan(120);
    });
  });
});
