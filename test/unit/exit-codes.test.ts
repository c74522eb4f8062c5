import { describe, expect, it } from 'vitest';
import {
  EXIT,
  EXIT_CODES,
  exitCodeFor,
  exitCodeForParser,
  exitCodeForSignal,
  SIGNAL_EXIT,
} from '../../src/cli/exit-codes.js';
import type { ErrorCode } from '../../src/core/model/errors.js';

const CODES: ErrorCode[] = [
  'MDGET_USAGE',
  'MDGET_CONFIG',
  'MDGET_SERVICE',
  'MDGET_HTTP',
  'MDGET_NETWORK',
  'MDGET_IO',
  'MDGET_PARTIAL',
  'MDGET_ABORTED',
];

describe('exit codes (cli.md), all mapped in exit-codes.ts', () => {
  it('maps every error code, signal and parser outcome to a status EXIT_CODES documents', () => {
    const documented = EXIT_CODES.map((e) => e.code);
    const statuses = [
      ...CODES.map(exitCodeFor),
      ...Object.values(SIGNAL_EXIT),
      EXIT.ok,
      EXIT.internal,
      EXIT.usage,
    ];
    for (const status of statuses) expect(documented).toContain(status);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it.each([
    [{ code: 'commander.helpDisplayed', exitCode: 0 }, 0],
    [{ code: 'commander.version', exitCode: 0 }, 0],
    [{ code: 'commander.unknownOption', exitCode: 1 }, 2],
    [{ code: 'commander.help', exitCode: 1 }, 2],
    [{ code: 'commander.invalidArgument', exitCode: 1 }, 2],
    [{ code: 'MDGET_USAGE' }, undefined],
    [new Error('boom'), undefined],
  ])('parser outcome %j → %s', (error, status) => {
    expect(exitCodeForParser(error)).toBe(status);
  });

  it('gives each signal 128 + its number, and an abort without one 130', () => {
    expect([exitCodeForSignal('SIGINT'), exitCodeForSignal('SIGTERM'), exitCodeForSignal('SIGHUP')]).toEqual([
      130, 143, 129,
    ]);
    expect(exitCodeForSignal(undefined)).toBe(130);
  });
});
