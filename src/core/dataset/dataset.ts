/**
 * A dataset as mdget keeps it: the series and reference files of a `mdget.toml` (or of an object the
 * library is handed), checked and with every path made absolute. docs/dataset.md is the contract.
 */
import type { DownloadName, DownloadOptions } from '../model/options.js';
import type { NameOf } from '../plan/names.js';

/** The kinds a series may be: the download commands that write time series or events. */
export const SERIES_KINDS = ['ticks', 'minutes', 'eod', 'events', 'futopts'] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];

/** One series as written: the keys of a `[[series]]` table. */
export interface SeriesInput {
  name: string;
  kind: SeriesKind;
  /** The symbols (roots for futopts); or `symbols_file`, one a line, `#` comments. */
  symbols?: readonly string[];
  symbols_file?: string;
  /** A date in any form the download commands take. */
  start: string | Date;
  /** A date, or `now`: through today, which stays provisional until the data cut-off has passed it. */
  end?: string | Date;
  /** The output template under `root`; its extension sets the format (`.csv`, `.ndjson`, `.json`, `.txt`, each optionally `.gz`). */
  path: string;
  /** `UTC` or an IANA zone: timestamps rewritten as the download commands' --utc / --tz do. */
  tz?: string;
  /** Any other option of the command, by its long flag name (`session-filter`, `interval`, `window`). */
  options?: Readonly<Record<string, unknown>>;
}

/** The reference files a dataset keeps: the exchanges list and instruments files of some exchanges. */
export interface ReferenceInput {
  exchanges?: string;
  instruments?: { exchanges: readonly string[]; path: string };
}

/** A dataset as the library takes it: the shape of `mdget.toml`. */
export interface DatasetInput {
  /** Where every file goes, relative to the dataset file (or to `dir` for an object); default `.`. */
  root?: string;
  series?: readonly SeriesInput[];
  reference?: ReferenceInput;
}

/** A series checked: its download command, and the options that command is resolved with. */
export interface Series {
  name: string;
  kind: SeriesKind;
  command: DownloadName;
  /** The download options, `output` the absolute template; every rule is checked when planned. */
  options: DownloadOptions;
  /** Its files grow (no `{date}`, `{start}` or `{end}` in the path): later syncs append to them. */
  growing: boolean;
  /** How a rule names this series' options: by the key of the dataset file, with its line. */
  names: NameOf;
  /** The file and line a message about this series points to (`mdget.toml:12`). */
  where(option?: string): string;
}

/** Where a dataset's files go and where its ledger is kept. */
export interface DatasetPlace {
  /** The dataset file, absolute; absent for an object. */
  file?: string;
  /** The directory every file goes under, absolute. */
  root: string;
}

/** A reference file of a dataset: the exchanges list, or one exchange's instruments. */
export interface ReferenceFile {
  kind: 'exchanges' | 'instruments';
  /** The exchange as written (instruments only): an id or a description. */
  exchange?: string;
  /** Absolute path. */
  path: string;
  format: string;
  where: string;
}

/** A dataset checked: its place, its series, its reference files. */
export interface Dataset extends DatasetPlace {
  series: Series[];
  reference: ReferenceFile[];
}
