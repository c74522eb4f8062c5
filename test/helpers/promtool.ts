import { execFileSync, spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/** Prometheus' promtool when this machine has it (CI installs it: .ci/run); tests that need it skip otherwise. */
export const PROMTOOL: string | undefined = (() => {
  const found = spawnSync('promtool', ['--version'], { stdio: 'ignore' });
  return found.error || found.status !== 0 ? undefined : 'promtool';
})();

/** Asserts `promtool check metrics` accepts the text, lint warnings included (nothing when promtool is absent). */
export function expectPromtoolAccepts(text: string): void {
  if (!PROMTOOL) return;
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  expect([run.status, run.stdout, run.stderr]).toEqual([0, '', '']);
}

/** Runs `promtool test rules` on a test file; its output when it fails. */
export function promtoolTestRules(file: string): string {
  return execFileSync(PROMTOOL ?? 'promtool', ['test', 'rules', file], { encoding: 'utf8' });
}

/** The samples of an exposition text by series (name and labels as written), with their values. */
export function samplesOf(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}
