// The yardstick of the floor rows: the least a Node client takes here for a batch. Node and undici only,
// c requests at a time over one agent, each gzip body inflated and dropped: no files, no checks, no
// transforms. What it takes beyond the floor is Node's start-up and this machine's, not mdget's.
// Usage: node bare-batch.js URL-LIST C
import { readFileSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { Agent, request } from 'undici';

const [list, c] = [process.argv[2], Number(process.argv[3])];
const urls = readFileSync(list, 'utf8').trim().split('\n');
const dispatcher = new Agent({ connections: c });
let next = 0;
async function worker() {
  while (next < urls.length) {
    const { body, headers, statusCode } = await request(urls[next++], {
      dispatcher,
      headers: { 'accept-encoding': 'gzip' },
    });
    if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
    for await (const _ of headers['content-encoding'] === 'gzip' ? body.pipe(createGunzip()) : body);
  }
}
await Promise.all(Array.from({ length: c }, worker));
await dispatcher.close();
