// Reproducer: memory and time blow-up when undici's request() body is consumed under backpressure and the
// server sends a large body in many small chunked pieces (a gzip stream, ~16 KiB per piece).
//
//   npm install undici
//   node undici-backpressure.js [--mb 128] [--piece 16384] [--variants undici,http,handler]
//                               [--hwm 65536] [--sink file|slow|null] [--cap-mb 6144] [--limit-s 300]
//                               [--runs 1] [--node /path/to/other/node] [--trace] [--default-hwm N]
//                               [--dest-hwm N]  (highWaterMark of createGunzip() and the file stream)
//                               [--node-args "--liftoff-only"]
//
// The parent process starts a node:http server on 127.0.0.1:0 that sends --mb MB of CSV-like text
// gzip-compressed (level 1), each gzip output piece of at most --piece bytes written as its own HTTP chunk
// (Transfer-Encoding: chunked), with backpressure (res.write / 'drain'). The gzip pieces are computed once
// and replayed, so the server costs little CPU. Each client variant runs in its own child process, which
// pipes the body through zlib.createGunzip() into a sink and prints its wall time, CPU time and peak RSS.
// The parent also samples the child's RSS and kills it above --cap-mb or after --limit-s.
//
// Variants:
//   undici   undici.request(url, { highWaterMark }) -> body -> createGunzip() -> sink   (stream.pipeline)
//   http     node:http.get(url) -> res -> createGunzip() -> sink                          (the baseline)
//   handler  undici Agent.dispatch() with a handler that queues onResponseData chunks in a Readable and
//            pauses undici when 1 MiB is queued, resuming only when the queue is empty (hysteresis)
//   iter     undici.request(), `for await` over body, each chunk written to createGunzip() (await drain)
//   raw      undici.request() body piped straight into the sink, no gunzip (sizes then are compressed)
//   curl     curl --compressed -o FILE (timed with GNU time), the speed to aim for
//   disk     no HTTP: the same gzip stream read from its cache file -> createGunzip() -> sink (the floor)
//
// The sink is a file in the temp directory (TMPDIR=/dev/shm keeps disk writeback out of the timings).
//
// The child's peak RSS is its VmHWM (/proc/self/status) at the end, or the parent's samples of VmRSS (every
// 50 ms) when it had to be killed. --node-args "--liftoff-only" passes flags to the child's node.
//
// Env UNDICI=/path/to/node_modules/undici picks another undici copy (to compare versions).
import { spawn } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { constants, createGzip, createGunzip as zlibGunzip } from 'node:zlib';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.lastIndexOf(`--${name}`);
  return i === -1 ? dflt : args[i + 1];
};

if (args[0] === 'child') await child(args[1], args[2]);
else await parent();

// ---------------------------------------------------------------------------------------------------------
async function parent() {
  const mb = Number(opt('mb', 128));
  const piece = Number(opt('piece', 16384));
  const variants = opt('variants', 'undici,http,handler').split(',');
  const capMb = Number(opt('cap-mb', 6144));
  const limitS = Number(opt('limit-s', 300));
  const runs = Number(opt('runs', 1));
  const childNode = opt('node', process.execPath);

  const t0 = performance.now();
  const gzipped = await gzipBody(mb * 1e6);
  const pieces = [];
  for (let at = 0; at < gzipped.length; at += piece) pieces.push(gzipped.subarray(at, at + piece));
  console.error(
    `# body: ${mb} MB of text -> ${(gzipped.length / 1e6).toFixed(1)} MB gzip, sent as ${pieces.length} HTTP chunks of ${piece} B ` +
      `(prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  const server = http.createServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv', 'content-encoding': 'gzip' }); // chunked
    for (const p of pieces) {
      if (res.destroyed) return;
      if (!res.write(p)) await drained(res);
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/data.csv`;

  const undiciPath = process.env.UNDICI ?? 'undici';
  const version = await undiciVersion(undiciPath);
  console.error(`# node ${childNode === process.execPath ? process.version : childNode}, undici ${version}`);
  console.log(
    [
      'variant',
      'node',
      'undici',
      'MB',
      'piece',
      'hwm',
      'sink',
      'dest hwm',
      'wall s',
      'cpu s',
      'peak RSS MiB',
      'decoded MB',
    ].join('\t'),
  );
  try {
    for (let run = 0; run < runs; run++) {
      for (const variant of variants) {
        const r = await runChild(childNode, variant, url, capMb, limitS);
        console.log(
          [
            variant,
            r.node ?? '?',
            variant === 'http' ? '-' : version,
            mb,
            piece,
            opt('hwm', 'default'),
            opt('sink', 'file'),
            opt('dest-hwm', 'default'),
            r.wall,
            r.cpu,
            r.rss,
            r.decoded,
          ].join('\t'),
        );
      }
    }
  } finally {
    server.close();
    server.closeAllConnections?.();
  }
}

/** Resolves on 'drain' (or 'close': the client went away). */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/**
 * The gzip stream (level 1) of `bytes` bytes of CSV-like text (tick rows), made once and cached in the
 * temp directory. A streaming gzip emits pieces of exactly its chunkSize (16 KiB by default), so slicing
 * this stream into `piece`-byte slices gives the pieces such a server sends.
 */
async function gzipBody(bytes) {
  const cache = join(tmpdir(), `undici-repro-${bytes}.csv.gz`);
  if (existsSync(cache)) return readFileSync(cache);
  const gz = createGzip({ level: constants.Z_BEST_SPEED });
  const parts = [];
  gz.on('data', (p) => parts.push(p));
  const done = new Promise((r, j) => gz.on('end', r).on('error', j));
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) / 16777216;
  };
  const prices = new Map();
  const price = (t) => {
    if (!prices.has(t)) prices.set(t, (t / 4).toFixed(2));
    return prices.get(t);
  };
  let ticks = 5612 * 4 + 1; // price in quarter points
  let ms = Date.UTC(2025, 2, 13, 13, 30);
  let second = -1;
  let prefix = '';
  let written = 0;
  while (written < bytes) {
    let block = '';
    while (block.length < 1 << 20) {
      ms += Math.floor(rnd() * 40);
      if (Math.floor(ms / 1000) !== second) {
        second = Math.floor(ms / 1000);
        prefix = new Date(ms).toISOString().slice(0, 20);
      }
      ticks += Math.floor(rnd() * 3) - 1;
      const size = 1 + Math.floor(rnd() * 20);
      block += `${prefix}${String(ms % 1000).padStart(3, '0')}Z,ESM25,${price(ticks)},${size},${price(ticks - 1)},${price(ticks)},${rnd() < 0.5 ? 'B' : 'S'}\n`;
    }
    const buf = Buffer.from(block).subarray(0, Math.min(block.length, bytes - written));
    written += buf.length;
    if (!gz.write(buf)) await new Promise((r) => gz.once('drain', r));
  }
  gz.end();
  await done;
  const body = Buffer.concat(parts);
  writeFileSync(cache, body);
  return body;
}

async function undiciVersion(path) {
  try {
    const dir = path === 'undici' ? fileURLToPath(new URL('node_modules/undici/', import.meta.url)) : path;
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

/** Runs one variant in a child process; samples its RSS every 50 ms, kills it above capMb or after limitS. */
function runChild(node, variant, url, capMb, limitS) {
  if (variant === 'curl') return runCurl(url);
  return new Promise((resolve) => {
    const nodeArgs = (opt('node-args', '') || '').split(' ').filter(Boolean);
    const proc = spawn(node, [...nodeArgs, fileURLToPath(import.meta.url), 'child', variant, url, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let sampled = 0;
    let killed = false;
    const started = performance.now();
    proc.stdout.on('data', (d) => (out += d));
    const timer = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        sampled = Math.max(sampled, kb);
        if ((kb / 1024 > capMb || performance.now() - started > limitS * 1000) && !killed) {
          killed = true;
          proc.kill('SIGKILL');
        }
      } catch {}
    }, 50);
    proc.on('close', () => {
      clearInterval(timer);
      rmSync(join(tmpdir(), `undici-repro-${proc.pid}.out`), { force: true }); // left behind by a killed child
      const wall = ((performance.now() - started) / 1000).toFixed(1);
      if (killed)
        resolve({
          wall: `${wall} (killed)`,
          cpu: '-',
          rss: `>=${(sampled / 1024).toFixed(0)} (sampled)`,
          decoded: '-',
        });
      else {
        try {
          const r = JSON.parse(out);
          resolve({
            wall: r.wall.toFixed(2),
            cpu: r.cpu.toFixed(2),
            rss: (r.maxRSS / 1024).toFixed(0),
            decoded: (r.decoded / 1e6).toFixed(0),
            node: r.node,
          });
        } catch {
          resolve({ wall: 'error', cpu: '-', rss: (sampled / 1024).toFixed(0), decoded: '-' });
        }
      }
    });
  });
}

/** curl --compressed into a file in the temp directory, measured by GNU time: the speed to aim for. */
function runCurl(url) {
  return new Promise((resolve) => {
    const file = join(tmpdir(), `undici-repro-curl-${process.pid}.out`);
    const proc = spawn(
      '/usr/bin/time',
      ['-f', '%e %U %S %M', 'curl', '-sS', '--compressed', '-o', file, url],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    proc.stderr.on('data', (d) => (err += d));
    proc.on('close', () => {
      let decoded = 0;
      try {
        decoded = readFileSync(file).length; // fine for a benchmark file in tmpfs
      } catch {}
      rmSync(file, { force: true });
      const [e, u, sy, m] = err.trim().split('\n').pop().split(' ').map(Number);
      resolve({
        wall: e.toFixed(2),
        cpu: (u + sy).toFixed(2),
        rss: (m / 1024).toFixed(0),
        decoded: (decoded / 1e6).toFixed(0),
        node: '-',
      });
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
async function child(variant, url) {
  const hwmArg = opt('hwm', undefined);
  const highWaterMark = hwmArg === undefined ? undefined : Number(hwmArg);
  const sinkKind = opt('sink', 'file');
  const destHwm =
    opt('dest-hwm', undefined) === undefined ? {} : { highWaterMark: Number(opt('dest-hwm', undefined)) };
  const createGunzip = () => zlibGunzip(destHwm);
  const file = join(tmpdir(), `undici-repro-${process.pid}.out`);
  let decoded = 0;
  const sink = () => {
    const count = new Writable({
      // only counts; wraps the real sink below
      write(chunk, _enc, cb) {
        decoded += chunk.length;
        cb();
      },
    });
    if (sinkKind === 'null') return count;
    if (sinkKind === 'slow') {
      // a deliberately slow consumer: each write completes after a timer tick (~1 ms)
      return new Writable({
        highWaterMark: 16384,
        write(chunk, _enc, cb) {
          decoded += chunk.length;
          setTimeout(cb, 0);
        },
      });
    }
    const fileStream = createWriteStream(file, destHwm);
    const orig = fileStream.write.bind(fileStream);
    fileStream.write = (chunk, ...rest) => {
      decoded += chunk.length;
      return orig(chunk, ...rest);
    };
    return fileStream;
  };

  if (opt('default-hwm', undefined)) {
    // Node 22 raised the default highWaterMark of byte streams (sockets included) from 16 KiB to 64 KiB
    const stream = await import('node:stream');
    stream.setDefaultHighWaterMark(false, Number(opt('default-hwm', undefined)));
  }
  const stats = { reads: 0, readBytes: 0, maxSocketBuffer: 0, unshifts: 0 };
  if (args.includes('--trace')) {
    // diagnostics: how often and how much undici reads back from the socket's buffer
    const net = await import('node:net');
    const { read, unshift } = net.Socket.prototype;
    net.Socket.prototype.read = function (n) {
      stats.maxSocketBuffer = Math.max(stats.maxSocketBuffer, this.readableLength);
      const chunk = read.call(this, n);
      if (chunk) {
        stats.reads++;
        stats.readBytes += chunk.length;
      }
      return chunk;
    };
    net.Socket.prototype.unshift = function (chunk, enc) {
      stats.unshifts++;
      return unshift.call(this, chunk, enc);
    };
  }
  const undici = await import(process.env.UNDICI ? join(process.env.UNDICI, 'index.js') : 'undici');
  const start = performance.now();
  try {
    if (variant === 'undici') {
      const { body, statusCode } = await undici.request(url, { highWaterMark });
      if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
      await pipeline(body, createGunzip(), sink());
    } else if (variant === 'raw') {
      // no gunzip: the compressed body piped straight into the sink
      const { body } = await undici.request(url, { highWaterMark });
      await pipeline(body, sink());
    } else if (variant === 'iter') {
      const { body } = await undici.request(url, { highWaterMark });
      const gunzip = createGunzip();
      const done = pipeline(gunzip, sink());
      for await (const chunk of body) {
        if (!gunzip.write(chunk)) await new Promise((r) => gunzip.once('drain', r));
      }
      gunzip.end();
      await done;
    } else if (variant === 'disk') {
      // no HTTP at all: the same gzip stream read from the cache file, for the cost of gunzip + sink alone
      const cache = join(tmpdir(), `undici-repro-${Number(opt('mb', 128)) * 1e6}.csv.gz`);
      await pipeline(createReadStream(cache), createGunzip(), sink());
    } else if (variant === 'http') {
      const res = await new Promise((resolve, reject) => http.get(url, resolve).on('error', reject));
      await pipeline(res, createGunzip(), sink());
    } else if (variant === 'handler') {
      const agent = new undici.Agent();
      const body = await dispatchGet(agent, new URL(url));
      await pipeline(body, createGunzip(), sink());
      await agent.close();
    } else throw new Error(`unknown variant ${variant}`);
  } finally {
    rmSync(file, { force: true });
  }
  const wall = (performance.now() - start) / 1000;
  if (args.includes('--trace'))
    console.error(
      `# ${variant}: socket.read() ${stats.reads} calls, ${(stats.readBytes / 1e6).toFixed(0)} MB returned; unshift ${stats.unshifts}; largest socket buffer ${(stats.maxSocketBuffer / 1e6).toFixed(1)} MB`,
    );
  const usage = process.resourceUsage();
  const cpu = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  // Peak RSS: VmHWM of this process's own address space. Not resourceUsage().maxRSS: Linux carries
  // ru_maxrss across fork+exec, so a child of a big parent (this one holds the whole gzip body) reports
  // max(parent's RSS at spawn, its own peak).
  let maxRSS = usage.maxRSS;
  try {
    maxRSS = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
  } catch {}
  process.stdout.write(JSON.stringify({ wall, cpu, maxRSS, decoded, node: process.version }));
  process.exit(0);
}

/** GET through Dispatcher.dispatch(): pause undici when 1 MiB is queued, resume only when the queue is empty. */
function dispatchGet(dispatcher, url) {
  const HIGH = 1024 * 1024;
  const queue = [];
  let queued = 0;
  let paused = false;
  let ended = false;
  let waiting = false; // _read was called with nothing queued: serve it when data comes
  let controller;
  let body;
  const serve = () => {
    if (body.destroyed) return;
    if (queue.length) {
      const chunk = queue.length === 1 ? queue[0] : Buffer.concat(queue, queued);
      queue.length = 0;
      queued = 0;
      body.push(chunk);
    } else if (ended) return body.push(null);
    else waiting = true;
    if (paused && queue.length === 0) {
      paused = false;
      controller.resume();
    }
  };
  const wake = () => {
    if (waiting) {
      waiting = false;
      process.nextTick(serve); // never push from inside undici's callback
    }
  };
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(
      { origin: url.origin, path: url.pathname, method: 'GET', headers: {} },
      {
        onRequestStart(c) {
          controller = c;
        },
        onResponseStart(_c, statusCode) {
          if (statusCode !== 200) return reject(new Error(`HTTP ${statusCode}`));
          body = new Readable({
            read: serve,
            destroy(err, cb) {
              if (!ended) controller.abort(err ?? new Error('aborted'));
              cb(err);
            },
          });
          resolve(body);
        },
        onResponseData(_c, chunk) {
          queue.push(chunk);
          queued += chunk.length;
          wake();
          if (queued >= HIGH && !paused) {
            paused = true;
            controller.pause();
          }
        },
        onResponseEnd() {
          ended = true;
          wake();
        },
        onResponseError(_c, err) {
          if (body) body.destroy(err);
          else reject(err);
        },
      },
    );
  });
}
