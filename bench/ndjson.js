// node bench/ndjson.js (after npm run build): normalized tick lines turned into ndjson/json, in MB of csv
// per second, against the csv path's one per-byte pass (WasmLineNormalizer.push) over the same lines in
// the same run. Also measured: the plain fallbacks of both (the line normaliser and the JSON converter
// that MDGET_DEBUG_PLAIN=1 selects), recordToJson line by line (the code before the converter), and two
// other ways to stay in JavaScript: a global regex replace with a $n template (a ceiling: it finds no
// line it cannot convert) and indexOf + slice per field.
// Each case runs in its own process (JIT feedback of one case must not slow the next); best of ROUNDS.
//   BENCH_MB=n       megabytes of csv lines (default 32)
//   BENCH_ROUNDS=n   passes per case (default 3)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { outputColumns, RECORD_SHAPES } from '../dist/core/model/record-shapes.js';
import { WasmJsonRows } from '../dist/core/pipeline/json-rows.js';
import { PlainJsonRows } from '../dist/core/pipeline/json-rows-plain.js';
import { WasmLineNormalizer } from '../dist/core/pipeline/line-normalizer.js';
import { PlainLineNormalizer } from '../dist/core/pipeline/line-normalizer-plain.js';
import { recordToJson } from '../dist/core/pipeline/output-state.js';

const MB = Number(process.env.BENCH_MB ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COLUMNS = outputColumns('ticks', { trend: false, contract: false });
const SHAPE = RECORD_SHAPES.ticks;

/** Tick lines as the converter gets them: symbol first, LF ends, ~45 bytes each. */
function tickLines() {
  let seed = 9;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const start = Date.parse('2025-03-13T17:00:00Z');
  const lines = [];
  let bytes = 0;
  for (let i = 0; bytes < MB * 1e6; i++) {
    const time = new Date(start + i * 11).toISOString().slice(0, 23).replace('T', ' ');
    const price = (5600 + Math.floor(random() * 80) / 4).toString();
    const line = `ESM25,${time},14,G,${price},${1 + Math.floor(random() * 50)}\n`;
    lines.push(line);
    bytes += line.length;
  }
  return Buffer.from(lines.join(''));
}

/** `bytes` cut at line ends into pieces of about `size`. */
function chunks(bytes, size) {
  const pieces = [];
  for (let at = 0; at < bytes.length; ) {
    let end = Math.min(bytes.length, at + size);
    if (end < bytes.length) end = bytes.lastIndexOf(10, end - 1) + 1;
    pieces.push(bytes.subarray(at, end));
    at = end;
  }
  return pieces;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const TEXT = COLUMNS.map((name) => name === 'symbol' || name === 'session_code');
const fallback = (line) => recordToJson(line, COLUMNS, SHAPE);

// symbol, time, trading_day, session_code, price, size: the ticks' usual forms, quoted or bare
const QUOTED = [true, true, false, true, false, false];
const regexTemplate = () => {
  const forms = QUOTED.map((quoted) => (quoted ? '([^,"\\\\\\n]+)' : '(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?)'));
  const re = new RegExp(`^${forms.join(',')}$`, 'gm');
  const values = COLUMNS.map((name, i) => (QUOTED[i] ? `"${name}":"$${i + 1}"` : `"${name}":$${i + 1}`));
  const template = `{${values.join(',')}}`;
  return (lines) => Buffer.from(lines.toString('latin1').replace(re, template));
};

const indexOfPerField = () => {
  const keys = COLUMNS.map((name, i) => `${i === 0 ? '{' : ','}"${name}":`);
  return (lines) => {
    const text = lines.toString('utf8');
    let out = '';
    for (let at = 0; at < text.length; ) {
      const end = text.indexOf('\n', at);
      let from = at;
      for (let i = 0; i < keys.length; i++) {
        const comma = i === keys.length - 1 ? end : text.indexOf(',', from);
        const value = text.slice(from, comma);
        out += keys[i] + (value === '' ? 'null' : !TEXT[i] && NUMBER.test(value) ? value : `"${value}"`);
        from = comma + 1;
      }
      out += '}\n';
      at = end + 1;
    }
    return Buffer.from(out);
  };
};

const jsonRows = (framing, Rows = WasmJsonRows) => {
  const rows = new Rows(COLUMNS);
  return (lines) => rows.convert(lines, framing, fallback).bytes;
};

const CASES = {
  baseline: [
    'baseline: csv WasmLineNormalizer.push, 32 KiB',
    32_768,
    () => {
      const normalizer = new WasmLineNormalizer('');
      return (lines) => normalizer.push(lines);
    },
  ],
  plainNormalizer: [
    'csv PlainLineNormalizer.push, 32 KiB',
    32_768,
    () => {
      const normalizer = new PlainLineNormalizer('');
      return (lines) => normalizer.push(lines);
    },
  ],
  recordToJson: [
    'recordToJson per line (before)',
    32_768,
    () => (lines) => {
      let text = '';
      for (const line of lines.toString('utf8').split('\n')) if (line !== '') text += `${fallback(line)}\n`;
      return Buffer.from(text);
    },
  ],
  regex: ['regex replace, $n template', 32_768, regexTemplate],
  indexOf: ['indexOf + slice per field', 32_768, indexOfPerField],
  ndjson: ['JsonRows ndjson, 32 KiB chunks', 32_768, () => jsonRows('ndjson')],
  ndjsonMiB: ['JsonRows ndjson, 1 MiB chunks', 1_048_576, () => jsonRows('ndjson')],
  json: ['JsonRows json, 32 KiB chunks', 32_768, () => jsonRows('json')],
  plainNdjson: ['PlainJsonRows ndjson, 32 KiB chunks', 32_768, () => jsonRows('ndjson', PlainJsonRows)],
};

/** The best of ROUNDS passes over all lines, in MB of csv per second. */
function measure([, size, make]) {
  const input = tickLines();
  const pieces = chunks(input, size);
  let best = 0;
  let checksum = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const convert = make();
    const started = process.hrtime.bigint();
    for (const piece of pieces) checksum += convert(piece).length;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    best = Math.max(best, input.length / 1e6 / seconds);
  }
  if (checksum === 0) throw new Error('nothing converted');
  return best;
}

const only = process.argv[2];
if (only) {
  console.log(measure(CASES[only]));
} else {
  const self = fileURLToPath(import.meta.url);
  const rate = (name) => Number(execFileSync(process.execPath, [self, name], { encoding: 'utf8' }));
  const results = Object.entries(CASES).map(([name, [label]]) => [label, rate(name)]);
  const baseline = results[0][1];
  console.log(`${MB} MB of tick lines, best of ${ROUNDS}, Node ${process.version}`);
  for (const [label, mbPerSecond] of results) {
    const per300 = (300 / mbPerSecond).toFixed(2).padStart(6);
    console.log(
      `${label.padEnd(42)} ${mbPerSecond.toFixed(0).padStart(5)} MB/s  ${(mbPerSecond / baseline).toFixed(2)}x baseline  ${per300} s per 300 MB`,
    );
  }
}
