// The yardstick of the large-response rows: a bare undici client with 1 MiB reads and coalesced 1 MiB writes,
// no checks, no transforms. It shows how much room the stack leaves between mdget and curl. Usage: node
// bare-undici.js URL FILE
import { open } from 'node:fs/promises';
import { request } from 'undici';

const [url, file] = process.argv.slice(2);
const { body, statusCode } = await request(url, { highWaterMark: 1 << 20 });
if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
const handle = await open(file, 'w');
let pending = [];
let size = 0;
for await (const chunk of body) {
  pending.push(chunk);
  size += chunk.length;
  if (size >= 1 << 20) {
    await handle.writev(pending);
    pending = [];
    size = 0;
  }
}
if (pending.length) await handle.writev(pending);
await handle.close();
