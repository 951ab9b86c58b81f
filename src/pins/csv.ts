import Papa from 'papaparse';
import type { CsvColumns } from '../config/types.ts';
import type { PinOptions } from '../config/pin-options.ts';
import { PinChecker, PinDataError, keptFields, type CheckedPin } from './data.ts';
import type { Pin, PinReading, PinSet } from './types.ts';

/**
 * CSV pins (README, "CSV pins"): a spreadsheet's rows as pins, in the page and in the pin tiler,
 * read by papaparse a chunk at a time.
 *
 * - The header (line 1) names the columns; each pin field's column is the one config's `csv`
 *   names, else the first found by its usual names (`CSV_COLUMN_NAMES`), case aside. Latitude,
 *   longitude and title are needed: a file without one of them is a `PinDataError` naming the
 *   columns it has. The other columns become the pin's properties, by their header names (for
 *   `searchFields` and `popupFields`).
 * - The delimiter is a tab, a semicolon or a comma: whichever the header line has most of. Where
 *   it is a semicolon, a coordinate may have a decimal comma (`48,8566`), as spreadsheets in many
 *   locales write them.
 * - Quoted fields may hold delimiters, quotes (doubled) and line breaks; a byte-order mark is
 *   dropped; blank lines are passed over.
 * - Every row is checked by `PinChecker`, as a GeoJSON feature is: a bad row is skipped with a
 *   reason that names its line (`line 7: latitude 95 is outside -90..90`), and every good row is a
 *   pin. A pin's id is its id column's, or, in a file without one, its line number.
 */

/** The header names each pin field is found under (case aside), in order of preference. */
export const CSV_COLUMN_NAMES = {
  lat: ['lat', 'latitude', 'y'],
  lng: ['lng', 'lon', 'long', 'longitude', 'x'],
  id: ['id'],
  title: ['title', 'name'],
  category: ['category'],
  description: ['description'],
  url: ['url'],
} as const satisfies Record<keyof CsvColumns, readonly string[]>;

type Field = keyof typeof CSV_COLUMN_NAMES;
const FIELDS = Object.keys(CSV_COLUMN_NAMES) as Field[];
/** What each field is called in messages. */
const FIELD_WORDS: Record<Field, string> = { lat: 'latitude', lng: 'longitude', id: 'id', title: 'title', category: 'category', description: 'description', url: 'url' };

/** The delimiters a pin file may use. */
export type CsvDelimiter = ',' | ';' | '\t';

/**
 * The delimiter of a file that starts with `text`: the one of tab, semicolon and comma that its
 * first line has most of outside quotes (a comma when it has none of them).
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts: Record<CsvDelimiter, number> = { '\t': 0, ';': 0, ',': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char in counts) counts[char as CsvDelimiter]++;
  }
  return (['\t', ';', ','] as const).reduce((best, delimiter) => (counts[delimiter] > counts[best] ? delimiter : best), ',' as CsvDelimiter);
}

/** A decimal number as a spreadsheet writes it: digits, an optional point and exponent. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** The same with a decimal comma. */
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;

/** A CSV row as the GeoJSON feature it is checked as. */
export interface CsvFeature {
  type: 'Feature';
  id: string;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: Record<string, unknown>;
}

/** Properties a column may not become (they are the pin's own, or not plain keys). */
const RESERVED = new Set(['pin', '__proto__', 'constructor', 'prototype']);

/**
 * The rows of one CSV file turned into pins as papaparse hands them over, chunk by chunk: the
 * header first, then each row with its line number, each checked by `checker`; `onPin` is given
 * every good one.
 */
export class CsvPinReader {
  /** How many rows (not blank) were read, the header not counted. */
  rows = 0;
  private line = 1;
  private header: string[] | undefined;
  private column: Partial<Record<Field, number>> = {};
  /** The other columns: index and property name. */
  private others: [number, string][] = [];
  private decimalComma = false;
  private linebreak = '\n';

  constructor(
    private readonly checker: PinChecker,
    private readonly named: CsvColumns = {},
    /** Told each good row's pin, line, and the GeoJSON feature it was checked as. */
    private readonly onPin: (checked: CheckedPin, line: number, feature: CsvFeature) => void = () => {},
  ) {
    checker.labelled((line) => `line ${line}`);
  }

  /** What papaparse is told: the delimiter from the header line, no byte-order mark, and `chunk` for each chunk of rows. */
  parseConfig(): Papa.ParseConfig<string[]> & { chunk: (results: Papa.ParseResult<string[]>) => void } {
    return {
      delimiter: (input: string) => detectDelimiter(input),
      beforeFirstChunk: (chunk: string) => (chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk),
      skipEmptyLines: false,
      chunk: (results) => this.take(results),
    };
  }

  /** The header name of each pin field's column, once the header is read (`pinmap serve` prints those it used). */
  get columns(): Partial<Record<Field, string>> {
    const header = this.header ?? [];
    return Object.fromEntries(Object.entries(this.column).map(([field, at]) => [field, header[at]]));
  }

  /** Checks that the file had a header; call when papaparse is done. */
  finish(): void {
    if (!this.header) throw new PinDataError('the CSV file is empty: it needs a header line naming its columns (lat, lng, title, …) and a line per pin');
  }

  /** One chunk of rows from papaparse. */
  take(results: Papa.ParseResult<string[]>): void {
    if (results.meta.linebreak) this.linebreak = results.meta.linebreak;
    const broken = new Map<number, string>();
    for (const error of results.errors) {
      if (error.type === 'Quotes' && error.row !== undefined) broken.set(error.row, error.code === 'MissingQuotes' ? 'a quoted field is not closed (a " is missing)' : `its quotes are malformed (${error.message})`);
    }
    const rows = results.data;
    for (let r = 0; r < rows.length; r++) {
      const cells = rows[r]!;
      const line = this.line;
      this.line += 1 + breaksIn(cells, this.linebreak);
      if (cells.length === 1 && cells[0]!.trim() === '') continue; // a blank line
      if (!this.header) {
        this.readHeader(cells, results.meta.delimiter === ';');
        continue;
      }
      this.rows++;
      const problem = broken.get(r);
      if (problem !== undefined) {
        this.checker.reject(line, problem);
        continue;
      }
      const feature = this.row(cells, line);
      if (feature) this.onPin(feature.checked, line, feature.feature);
    }
  }

  private readHeader(cells: string[], semicolons: boolean): void {
    const header = cells.map((cell) => cell.trim());
    const folded = header.map((name) => name.toLowerCase());
    const columns = `its columns: ${header.filter((name) => name !== '').map((name) => JSON.stringify(name)).join(', ') || 'none'}`;
    for (const field of FIELDS) {
      const wanted = this.named[field];
      if (wanted !== undefined) {
        const at = folded.indexOf(wanted.trim().toLowerCase());
        if (at < 0) throw new PinDataError(`the config's csv.${field} names the column ${JSON.stringify(wanted)}, which the CSV file does not have (${columns})`);
        this.column[field] = at;
        continue;
      }
      const at = CSV_COLUMN_NAMES[field].map((name) => folded.indexOf(name)).find((index) => index >= 0 && !Object.values(this.column).includes(index));
      if (at !== undefined) this.column[field] = at;
    }
    for (const field of ['lat', 'lng', 'title'] as const) {
      if (this.column[field] !== undefined) continue;
      const names = CSV_COLUMN_NAMES[field].join(', ');
      throw new PinDataError(`the CSV file has no ${FIELD_WORDS[field]} column: name one ${names}, or name yours in the config as csv.${field} (${columns})`);
    }
    const taken = new Set(Object.values(this.column));
    this.others = header.flatMap((name, index): [number, string][] => (taken.has(index) || name === '' || RESERVED.has(name) ? [] : [[index, name]]));
    this.header = header;
    this.decimalComma = semicolons;
  }

  /** The pin a row makes and the feature it was checked as, or undefined when it is skipped (the checker has its reason). */
  private row(cells: string[], line: number): { checked: CheckedPin; feature: CsvFeature } | undefined {
    const cell = (field: Field) => {
      const at = this.column[field];
      return at === undefined ? undefined : (cells[at] ?? '').trim();
    };
    const id = this.column.id === undefined ? String(line) : cell('id')!;
    if (id === '') return this.checker.reject(line, `has no id (its ${this.columnName('id')} column is empty)`);
    const lat = this.coordinate(cell('lat')!, 'lat');
    if (typeof lat === 'string') return this.checker.reject(line, lat, id);
    const lng = this.coordinate(cell('lng')!, 'lng');
    if (typeof lng === 'string') return this.checker.reject(line, lng, id);
    const title = cell('title')!;
    if (title === '') return this.checker.reject(line, `has no title (its ${this.columnName('title')} column is empty)`, id);
    const properties: Record<string, unknown> = { title };
    for (const field of ['category', 'description', 'url'] as const) {
      const value = cell(field);
      if (value) properties[field] = value;
    }
    for (const [at, name] of this.others) {
      const value = cells[at]?.trim();
      if (value && !Object.hasOwn(properties, name)) properties[name] = value;
    }
    const feature: CsvFeature = { type: 'Feature', id, geometry: { type: 'Point', coordinates: [lng, lat] }, properties };
    const checked = this.checker.check(feature, line);
    return checked && { checked, feature };
  }

  /** A coordinate's number, or why its cell is not one. */
  private coordinate(text: string, field: 'lat' | 'lng'): number | string {
    const word = FIELD_WORDS[field];
    if (text === '') return `has no ${word} (its ${this.columnName(field)} column is empty)`;
    if (DECIMAL.test(text)) return Number(text);
    if (this.decimalComma && DECIMAL_COMMA.test(text)) return Number(text.replace(',', '.'));
    return `${word} must be a number (its ${this.columnName(field)} column has ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)})`;
  }

  private columnName(field: Field): string {
    return JSON.stringify(this.header![this.column[field]!]);
  }
}

/** How many line breaks the fields of one row hold (quoted fields may hold some). */
function breaksIn(cells: readonly string[], linebreak: string): number {
  const mark = linebreak === '\r' ? '\r' : '\n';
  let count = 0;
  for (const cell of cells) {
    for (let at = cell.indexOf(mark); at >= 0; at = cell.indexOf(mark, at + 1)) count++;
  }
  return count;
}

/**
 * Whether a pin file is CSV rather than GeoJSON: by its content type (`text/csv`,
 * `text/tab-separated-values`; a JSON type says it is not), else by its URL's extension (`.csv`,
 * `.tsv`, `.txt`; `.json`, `.geojson` are not), else by its text (JSON starts with `{`; an HTML page
 * with `<`, and is neither).
 */
export function isCsvFile(url: string, contentType: string | null, text: string): boolean {
  const type = (contentType ?? '').toLowerCase();
  if (/^text\/(csv|tab-separated-values)\b/.test(type)) return true;
  if (/json\b/.test(type)) return false;
  const extension = /\.([a-z]+)$/i.exec(new URL(url, 'http://x/').pathname)?.[1]?.toLowerCase();
  if (extension === 'csv' || extension === 'tsv' || extension === 'txt') return true;
  if (extension === 'json' || extension === 'geojson') return false;
  return /^\uFEFF?\s*[^\s{<[]/.test(text);
}

/**
 * Turns a CSV file's text into pins (the page's reading of a `.csv` pin file): each row is
 * checked as `parsePins` checks a feature, with config's `pinStyles` for its category and
 * `reading`'s fields kept. Throws a `PinDataError` for a file that cannot be pins at all.
 */
export function parseCsvPins(text: string, pinStyles: Record<string, PinOptions> = {}, reading: PinReading = {}): PinSet {
  const checker = new PinChecker(pinStyles).keepFields(keptFields(reading)).showFields(reading.popupFields ?? []);
  const pins: Pin[] = [];
  const reader = new CsvPinReader(checker, reading.csv, (checked) => pins.push(checked.pin));
  Papa.parse<string[]>(text, reader.parseConfig());
  reader.finish();
  return { pins, skipped: checker.skipped, warnings: checker.warnings, pinStyles: { ...pinStyles } };
}

/**
 * The chunks of a file's text with the first of them holding its whole first line (or all of a
 * file that has no line break): papaparse finds the delimiter in its first chunk.
 */
export async function* withWholeFirstLine(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let head = '';
  let whole = false;
  for await (const chunk of chunks) {
    if (whole) {
      yield chunk;
      continue;
    }
    head += chunk;
    if (!/[\r\n]/.test(head)) continue;
    whole = true;
    yield head;
  }
  if (!whole && head !== '') yield head;
}

/**
 * Reads a CSV file from a Node stream of text (the pin tiler's), a chunk at a time, handing
 * `reader` each chunk of rows; resolves once the file is read (and has a header), rejects with
 * what went wrong. The stream's first chunk must hold the whole header line (`withWholeFirstLine`).
 */
export function readCsvStream(input: NodeJS.ReadableStream, reader: CsvPinReader): Promise<void> {
  return new Promise((resolve, reject) => {
    Papa.parse<string[]>(input as unknown as Papa.LocalFile, {
      ...reader.parseConfig(),
      complete: () => {
        try {
          reader.finish();
          resolve();
        } catch (error) {
          reject(error as Error);
        }
      },
      error: (error: Error) => reject(error),
    });
  });
}
