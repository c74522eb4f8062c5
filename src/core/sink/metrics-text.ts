/**
 * Prometheus' text exposition format (version 0.0.4), which node_exporter's textfile collector reads:
 * a family is `# HELP`, `# TYPE` and its samples, one a line. Small enough to write here; `promtool check
 * metrics` holds every file mdget writes to it (test/cli/metrics.test.ts).
 */

/** One metric family: its name, what it means, its type and its samples. */
export interface MetricFamily {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  samples: readonly { labels: Readonly<Record<string, string>>; value: number }[];
}

/** The families as exposition text; a family without samples is left out. */
export function renderMetrics(families: readonly MetricFamily[]): string {
  let text = '';
  for (const family of families) {
    if (family.samples.length === 0) continue;
    text += `# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n`;
    text += `# TYPE ${family.name} ${family.type}\n`;
    for (const { labels, value } of family.samples)
      text += `${family.name}${labelText(labels)} ${number(value)}\n`;
  }
  return text;
}

function labelText(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(labels).map(
    ([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
  );
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

function number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return String(value);
}

/**
 * The value of the first sample of `name` in exposition text; a reason when the text holds none that
 * reads as a finite number (a damaged or foreign file).
 */
export function sampleValue(text: string, name: string): { value: number } | { damaged: string } {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue; // a longer name
    const afterLabels = rest[0] === '{' ? rest.slice(closingBrace(rest) + 1) : rest;
    const [value] = afterLabels.trim().split(/\s+/);
    const parsed = Number(value);
    if (value === undefined || value === '' || !Number.isFinite(parsed))
      return { damaged: `${name} has no number (${JSON.stringify(line.slice(0, 80))})` };
    return { value: parsed };
  }
  return { damaged: `no ${name} in it` };
}

/** The index of the `}` that closes a label set, quotes and escapes heeded (the text's length: never). */
function closingBrace(text: string): number {
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === '}' && !quoted) return i;
  }
  return text.length;
}
