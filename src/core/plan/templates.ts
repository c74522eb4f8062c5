import { usageError } from '../model/errors.js';

/** The placeholders an output path may hold (docs/cli.md#outputs). */
export const TEMPLATE_KEYS = ['symbol', 'date', 'start', 'end', 'command', 'ext'] as const;
export type TemplateVars = Partial<Record<(typeof TEMPLATE_KEYS)[number], string>>;

/** True when the path is a template: one file per symbol or chunk. */
export const isTemplate = (output: string): boolean => /\{(symbol|date|start|end|command|ext)\}/.test(output);

const PLACEHOLDER = /\{([^{}]*)\}/g;
const KNOWN = new Set<string>(TEMPLATE_KEYS);

/**
 * Throws MDGET_USAGE for an output path no request should be sent for: empty, naming a directory (a
 * trailing slash), or holding a placeholder mdget does not know (a typo such as `{sym}` would otherwise
 * merge every symbol into one file). `name` is how the caller names the option (`-o`).
 */
export function checkOutputPath(output: string, name: string): void {
  if (output === '')
    throw usageError(
      `${name} '': give a file name, a template such as 'data/{symbol}.csv', or - for stdout`,
      'output',
    );
  if (/[/\\]$/.test(output)) {
    throw usageError(
      `${name} ${output}: names a directory; give a file name such as ${output}data.csv`,
      'output',
    );
  }
  for (const [, key] of output.matchAll(PLACEHOLDER)) {
    if (!KNOWN.has(key ?? '')) {
      throw usageError(
        `${name} ${output}: unknown placeholder {${key}}; use {${TEMPLATE_KEYS.join('}, {')}}`,
        'output',
      );
    }
  }
}

/** The placeholders a template uses. */
export const placeholdersOf = (template: string): (keyof TemplateVars)[] => [
  ...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] as keyof TemplateVars)),
];

/** A value made safe as a file-name part: path separators, control and shell-hostile characters become `_`. */
function sanitizeFilePart(value: string): string {
  const cleaned = value.replace(/[/\\:*?"<>|\u0000-\u001f]/g, '_').replace(/^\.+/, '_');
  return cleaned === '' ? '_' : cleaned;
}

/**
 * A value as Hive writes it in a `key=value` folder (its FileUtils.escapePathName): control characters, DEL
 * and `" # % ' * / : = ? \ { [ ] ^` as `%XX`, so Hive-partitioned readers (DuckDB, pyarrow, Spark) decode the
 * folder back to the value itself, `ES%2A1` to `ES*1`; an empty value is Hive's null partition.
 */
export function escapeHiveValue(value: string): string {
  if (value === '') return '__HIVE_DEFAULT_PARTITION__';
  return value.replace(
    /[\u0000-\u001f"#%'*/:=?\\{[\]^\u007f]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** A folder named `key=...`: a Hive partition, whose value readers take in place of the file's column. */
const HIVE_FOLDER = /^[^{}=]+=/;

/**
 * The file name of one request: placeholders replaced by their values (pure). In a Hive folder
 * (`symbol={symbol}/`) a value is escaped as Hive does; elsewhere it is made safe as a file-name part.
 */
export function expandTemplate(template: string, vars: TemplateVars): string {
  const segments = template.split('/');
  return segments
    .map((segment, i) => {
      const safe = i < segments.length - 1 && HIVE_FOLDER.test(segment) ? escapeHiveValue : sanitizeFilePart;
      return segment.replace(/\{(symbol|date|start|end|command|ext)\}/g, (_, key: keyof TemplateVars) =>
        safe(vars[key] ?? ''),
      );
    })
    .join('/');
}
