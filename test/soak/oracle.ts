/**
 * The final check of a schedule: the faults lifted, one `sync` then `verify` must exit 0, and every file
 * must be byte-equal to a clean sync's at the same clock (a fresh root synced once against the healthy
 * emulator). What a careful user would do on the way (remove their own files, move a damaged ledger
 * aside when sync says so) the check does too; nothing else.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runMain } from '../helpers/run-cli.js';
import { kindOf, signatureOf, treeOf } from './files.js';
import { runHere } from './processes.js';
import { firstLine } from './steps.js';
import { DATASET_TOML, envOf, type Finding, type World } from './world.js';

/**
 * A plain sync compares a recorded file's size, not its hash (docs/dataset.md#mdget-sync-file): a byte
 * changed in place in a file that is complete is found by `verify` and mended by `sync --repair`. Set
 * to true once a plain sync checks hashes too, and the final check asks it of the plain sync.
 */
const PLAIN_SYNC_HASHES = false;

/** The findings of the final check (none: the schedule passed). */
export async function finalCheck(world: World): Promise<Finding[]> {
  const findings: Finding[] = [];
  // what is said is the class; the message of a run is normalized into it, the detail shows it as it was
  const found = (what: string, detail: string, message?: string) =>
    findings.push({
      signature: message === undefined ? what : `${what}: ${signatureOf(message, world.dir)}`,
      detail,
    });
  world.emu.options.faults = [];
  world.emu.options.ignoreStart = false;
  world.emu.hooks.beforeAnswer = undefined;
  world.emu.hooks.afterAnswer = undefined;
  for (const [path, bytes] of world.strays) {
    const full = join(world.root, path);
    if (!existsSync(full) || !readFileSync(full).equals(bytes))
      found(`a file of the user's under the root was changed or removed: ${kindOf(path)}`, path);
    rmSync(full, { force: true });
  }

  let sync = await runHere(world, ['sync', '-q']);
  if (sync.code !== 0 && world.ledgerDamaged && /ledger/i.test(sync.stderr)) {
    world.log.push(`final sync: exit ${sync.code}, ${firstLine(sync.stderr)}; the ledger moved aside`);
    moveLedgerAside(world);
    sync = await runHere(world, ['sync', '-q']);
  }
  if (sync.code !== 0) found(`final sync exit ${sync.code}`, sync.stderr.trim(), firstLine(sync.stderr));

  let verify = await verifyOf(world);
  const changedInPlace = (f: VerifyFinding) => f.kind === 'changed' && world.flipped.has(f.path);
  if (!PLAIN_SYNC_HASHES && verify.findings.length > 0 && verify.findings.every(changedInPlace)) {
    world.log.push(
      `final verify: ${verify.findings.map((f) => f.path).join(', ')} changed in place; sync --repair`,
    );
    const repair = await runHere(world, ['sync', '--repair', '-q']);
    if (repair.code !== 0)
      found(`final sync --repair exit ${repair.code}`, repair.stderr, firstLine(repair.stderr));
    verify = await verifyOf(world);
  }
  // the gap an empty tick day leaves after an ignored start is verify doing its part (see below)
  const expectedGap = (f: VerifyFinding) =>
    f.kind === 'gap' &&
    world.ignoredStart &&
    existsSync(join(world.root, f.path)) &&
    emptyTickDay(f.path, readFileSync(join(world.root, f.path)));
  for (const f of verify.findings.filter(expectedGap))
    world.log.push(`final verify: gap ${f.path}, empty after an ignored start`);
  const unexpected = verify.findings.filter((f) => !expectedGap(f));
  if (verify.code !== 0 && unexpected.length === 0 && verify.findings.length === 0)
    found(`final verify exit ${verify.code}`, verify.stderr, firstLine(verify.stderr));
  for (const f of unexpected) found(`final verify: ${f.kind} ${kindOf(f.path)}`, `${f.path}: ${f.detail}`);

  const clean = await cleanTree(world);
  if (typeof clean === 'string') {
    found('harness: the clean sync failed', clean, clean);
    return findings;
  }
  const mine = treeOf(world.root);
  for (const [path, bytes] of clean) {
    const have = mine.get(path);
    if (!have) found(`after the final sync, missing: ${kindOf(path)}`, path);
    else if (!have.equals(bytes) && world.ignoredStart && emptyTickDay(path, have))
      // A server that ignores start answers a day's request, whose start is that day, with nothing (the
      // service's default start is the beginning of end's day): an empty answer, which cannot be told from
      // a day without trades (docs/dataset.md, "What sync checks"); verify's gap report is the defence there.
      world.log.push(`final check: ${path} empty after an ignored start, as a quiet day would be`);
    else if (!have.equals(bytes))
      found(
        `after the final sync, bytes differ: ${kindOf(path)}`,
        `${path}: ${describeDifference(have, bytes, path)}`,
      );
  }
  for (const path of mine.keys())
    if (!clean.has(path)) found(`after the final sync, a file a clean sync has not: ${kindOf(path)}`, path);
  return findings;
}

/** A tick day's file that holds no rows (a header at most). */
function emptyTickDay(path: string, bytes: Buffer): boolean {
  if (!path.startsWith('ticks/')) return false;
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return text.split('\n').filter((line) => line !== '').length <= 1;
}

interface VerifyFinding {
  kind: string;
  path: string;
  detail: string;
}

async function verifyOf(world: World): Promise<{ code: number; findings: VerifyFinding[]; stderr: string }> {
  const run = await runHere(world, ['verify', '--json']);
  try {
    const parsed = JSON.parse(run.stdout) as { findings: VerifyFinding[] };
    return { code: run.code, findings: parsed.findings, stderr: run.stderr };
  } catch {
    return { code: run.code, findings: [], stderr: run.stderr };
  }
}

/** What a user does when sync says the ledger is damaged: move it aside, for the next sync to rebuild. */
function moveLedgerAside(world: World): void {
  const dir = join(world.root, '.mdget');
  for (const name of existsSync(dir) ? readdirSync(dir) : [])
    if (name.startsWith('ledger.sqlite')) renameSync(join(dir, name), join(world.dir, `aside.${name}`));
}

/** The files of a fresh root synced once at the world's clock against the healthy emulator. */
async function cleanTree(world: World): Promise<Map<string, Buffer> | string> {
  const dir = mkdtempSync(join(tmpdir(), 'mdget-soak-clean-'));
  try {
    writeFileSync(join(dir, 'mdget.toml'), DATASET_TOML);
    const run = await runMain(['sync', '-q', join(dir, 'mdget.toml')], { env: envOf(world) });
    if (run.code !== 0) return `exit ${run.code}: ${firstLine(run.stderr)}`;
    return treeOf(join(dir, 'data'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sizes, and the first line that differs, of two versions of a file (gzip: of what they hold). */
function describeDifference(have: Buffer, want: Buffer, path: string): string {
  const sizes = `${have.length} bytes, clean ${want.length}`;
  if (path.endsWith('.gz')) {
    try {
      return `${sizes}; inflated: ${describeDifference(gunzipSync(have), gunzipSync(want), '')}`;
    } catch {
      return `${sizes}; not gzip`;
    }
  }
  let at = 0;
  while (at < have.length && at < want.length && have[at] === want[at]) at++;
  const lineOf = (bytes: Buffer) => {
    const start = bytes.lastIndexOf(10, at - 1) + 1;
    const end = bytes.indexOf(10, at);
    return JSON.stringify(
      bytes
        .subarray(start, end < 0 ? bytes.length : end)
        .toString('latin1')
        .slice(0, 80),
    );
  };
  return `${sizes}; first difference at byte ${at}: ${lineOf(have)} vs ${lineOf(want)}`;
}
