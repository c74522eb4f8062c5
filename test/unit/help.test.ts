import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMANDS, type CommandSpec } from '../../src/cli/command-table.js';
import type { RunContext } from '../../src/cli/context.js';
import { topHelp } from '../../src/cli/help.js';
import { NO_COLORS } from '../../src/cli/io.js';
import { createLog } from '../../src/cli/log.js';
import { main } from '../../src/cli/main.js';
import { buildProgram } from '../../src/cli/program.js';

/** A context whose stdout is collected; nothing runs (every test stops at help). */
function capture(): { ctx: RunContext; out: () => string } {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const io = {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: {},
    cwd: '.',
    color: NO_COLORS,
  };
  const ctx = {
    io,
    signal: new AbortController().signal,
    now: new Date(0),
    clock: () => new Date(0),
    secrets: [],
    log: createLog('text', { stderr: io.stderr, secrets: [] }),
    version: '0.0.0',
    argv: [],
    exitCodeOf: () => 0,
  };
  return { ctx, out: () => Buffer.concat(chunks).toString('utf8') };
}

/** The help commander prints for argv, from the program built from the whole table. */
async function commanderHelp(argv: string[], specs: readonly CommandSpec[] = COMMANDS): Promise<string> {
  const { ctx, out } = capture();
  await expect(buildProgram(ctx, specs, '1.2.3').parseAsync(argv, { from: 'user' })).rejects.toMatchObject({
    code: 'commander.helpDisplayed',
  });
  return out();
}

describe('help from the tables', () => {
  it('mdget --help, rendered without commander, is what commander prints for the whole program', async () => {
    expect(topHelp(80)).toBe(await commanderHelp(['--help']));
  });

  it('a command built alone prints the same help as in the whole program', async () => {
    for (const spec of COMMANDS as readonly CommandSpec[]) {
      expect(await commanderHelp([spec.name, '--help'], [spec])).toBe(
        await commanderHelp([spec.name, '--help']),
      );
    }
  });

  it('ends mdget --help with every exit code', () => {
    const codes = topHelp().split('Exit codes:\n')[1] ?? '';
    expect(codes.match(/^ {2}\d+/gm)?.map(Number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 129, 130, 143]);
  });

  it.each([
    [
      'ticks',
      ['--historical-url <url>', '--session-filter <codes>'],
      ['--extras-url', '--futures-options-url'],
    ],
    ['futopts', ['--futures-options-url <url>', '--json'], ['--historical-url', '--window', '--update']],
    ['events', ['--splits', '--historical-url <url>'], ['--window', '--update', '--max-rows']],
    ['exchanges', ['--extras-url <url>', '--report <path>', '--dry-run'], ['--username', '--password-stdin']],
    [
      'instruments',
      ['--instruments-url <url>', '--report <path>', '--dry-run'],
      ['--username', '--historical-url'],
    ],
  ])('%s --help shows the options it uses and no other', async (name, shown, absent) => {
    const help = await commanderHelp([name, '--help']);
    for (const flag of shown) expect(help).toContain(flag);
    for (const flag of absent) expect(help).not.toContain(flag);
  });

  it('groups options, states defaults in their units, gives date forms, examples and exit codes', async () => {
    const help = await commanderHelp(['ticks', '--help']);
    const headings = help.match(/^[A-Z][A-Za-z ]+:$/gm);
    expect(headings).toEqual([
      'Arguments:',
      'Request options:',
      'Output options:',
      'Network options:',
      'Credentials and configuration:',
      'Monitoring:',
      'Messages:',
      'Examples:',
    ]);
    expect(help).toMatch(/--timeout <duration> +per-request .*\n.*\(default: 60s\)/);
    expect(help).not.toMatch(/default: "-"|default: \[\]|default: 60000/);
    expect(help.replace(/\s+/g, ' ')).toContain(
      'YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], YYYYMMDD[HHMM[SS]], today, yesterday, tomorrow or <n>d',
    );
    expect(help).toMatch(/Durations \(--window, --timeout\): ms, s, m, h, d or w/);
    expect(help).toMatch(/^ {2}symbol +instrument symbols/m);
    expect(help).toMatch(/^Exit codes: 0 ok, 1 internal error, 2 usage, 3 configuration/m);
    expect(help).not.toContain('`');
  });
});

describe('help fits the terminal', () => {
  /** What `mdget …argv` prints on a terminal `columns` wide. */
  async function helpOn(argv: string[], columns: number): Promise<string> {
    const chunks: Buffer[] = [];
    const stdout = Object.assign(new PassThrough(), { columns });
    stdout.on('data', (chunk) => chunks.push(chunk));
    await main(argv, {
      stdout,
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      stdoutIsTTY: true,
      stderrIsTTY: false,
      env: {},
      cwd: '.',
      color: NO_COLORS,
    });
    return Buffer.concat(chunks).toString('utf8');
  }

  it.each([60, 80, 100])('every command at %i columns: no line wider, words whole', async (columns) => {
    for (const name of ['', ...COMMANDS.map((command) => command.name)]) {
      const text = await helpOn(name ? [name, '--help'] : ['--help'], columns);
      expect(text.length, name).toBeGreaterThan(200);
      const wide = text.split('\n').filter((line) => line.length > columns);
      expect(wide, `${name || 'mdget'} --help`).toEqual([]);
    }
  });
});
