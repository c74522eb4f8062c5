import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_PROBES } from '../helpers/cli-env.js';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// A killed sync's temporary files (docs/dataset.md, "What sync checks") go with the next sync, beside every
// planned file: also beside one that is complete since and not fetched again (found by a soak schedule).
const DATASET = `root = "data"

[[series]]
name = "m"
kind = "minutes"
symbols = ["AAPL"]
start = "2025-03-11"
end = "now"
path = "minutes/{symbol}-{date}.csv"
`;
const NOW = '2025-03-13T18:00:00Z';

describe('leftovers of a killed sync', () => {
  it('a .kept link and a .part beside a complete file are removed by the next sync, nothing fetched', async () => {
    await withEmulator({ now: new Date(NOW) }, async (emu) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'mdget.toml'), DATASET);
      const env = { ...emu.env, ...NO_PROBES, MDGET_NOW: NOW };
      expect((await runMain(['sync', '-q'], { cwd: dir, env })).code).toBe(0);
      const folder = join(dir, 'data/minutes');
      const complete = 'AAPL-2025-03-11.csv';
      expect(existsSync(join(folder, complete))).toBe(true);
      writeFileSync(join(folder, `.${complete}.0123abcd.kept`), 'old rows\n');
      writeFileSync(join(folder, `.${complete}.89abcdef.part`), 'half a file');
      writeFileSync(join(folder, 'notes.txt'), 'the user’s own\n');
      emu.requests.length = 0;
      const again = await runMain(['sync', '-q'], { cwd: dir, env });
      expect(again.code).toBe(0);
      expect(readdirSync(folder).filter((name) => name.startsWith(`.${complete}`))).toEqual([]);
      expect(existsSync(join(folder, 'notes.txt'))).toBe(true);
      expect(emu.requests.map((r) => r.query.start)).not.toContain('20250311');
    });
  });
});
