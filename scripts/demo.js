// The README's demo: start the bundled emulator on a free port, run a real `mdget` download against it
// as a child process, and print what arrived. No account and no network needed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';

const bin = fileURLToPath(new URL('../bin/mdget', import.meta.url));
const emulator = await startEmulator();

function run(args) {
  console.error(`\n$ mdget ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...emulator.env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

let failed = 0;
failed += (await run(['ticks', 'ESM25', '--start', '2025-03-13', '--maxrecords', '5'])) !== 0;
failed +=
  (await run([
    'minutes',
    'AAPL',
    '--start',
    '2025-03-14T09:30',
    '--end',
    '2025-03-14T09:35',
    '--format',
    'ndjson',
  ])) !== 0;
failed += (await run(['eod', 'AAPL', 'ZCN25', '--start', '2025-03-10', '--end', '2025-03-13'])) !== 0;
await emulator.close();
process.exitCode = failed ? 1 : 0;
