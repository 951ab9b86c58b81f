import Papa from 'papaparse';
import type { CsvColumns } from '../config/types.ts';
import type { PinOptions } from '../config/pin-options.ts';
import { PinChecker, PinDataError, keptFields, quote, type CheckedPin } from './data.ts';
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
 *   dropped; blank lines are passed over. A first line longer than `HEADER_MAX` is no header (a
 *   file without line breaks): a `PinDataError` says so at once.
 * - Every row is checked by `PinChecker`, as a GeoJSON feature is: a bad row is skipped with a
 *   reason that names its line and title (`line 7 ("Quay"): latitude 95 is outside -90..90`), and
 *   every good row is a pin. A pin's id is its id column's, or, in a file without one, its line
 *   number.
 * - Every row is accounted for: a quote never closed (or closed with text after it) is skipped by
 *   the line it opened on, and the lines papaparse read into it are read again (`CsvPinReader`).
 * - A value quoted back in a message (a header name, a cell, a title) is cut at 80 characters.
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

/** The longest header line read (characters): a longer first line is not a header naming columns (a file without line breaks, say). */
export const HEADER_MAX = 100_000;

/** Why a file whose first line is longer than `HEADER_MAX` is not read. */
const HEADER_TOO_LONG = `the CSV file's first line is longer than ${HEADER_MAX.toLocaleString('en-US')} characters: it should be a header naming the columns (lat, lng, title, …), with a line per pin after it (are its line breaks missing?)`;

/** Throws a `PinDataError` when the file (or its start, `text`) has a first line longer than `HEADER_MAX`. */
function checkHeaderLength(text: string): void {
  const end = text.slice(0, HEADER_MAX + 2).search(/[\r\n]/);
  if ((end < 0 ? text.length : end) > HEADER_MAX + (text.charCodeAt(0) === 0xfeff ? 1 : 0)) throw new PinDataError(HEADER_TOO_LONG);
}

/**
 * The delimiter of a file that starts with `text`: the one of tab, semicolon and comma that its
 * first line has most of outside quotes (a comma when it has none of them), looked for in its
 * first `HEADER_MAX` characters.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts: Record<CsvDelimiter, number> = { '\t': 0, ';': 0, ',': 0 };
  let quoted = false;
  for (let i = 0; i < Math.min(text.length, HEADER_MAX + 1); i++) {
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

/** How often lines a broken quote ran on into are read again as a file before they are read a line at a time. */
const REREADS = 8;

/** How many header names a message lists before saying how many more there are. */
const NAMES_LISTED = 12;

/** What papaparse is told about a file's delimiter and line break, once its header line is known. */
interface Dialect {
  delimiter: string;
  linebreak: string;
}

/**
 * The rows of one CSV file turned into pins as papaparse hands them over, chunk by chunk: the
 * header first, then each row with its line number, each checked by `checker`; `onPin` is given
 * every good one.
 *
 * Every row is accounted for (`rows` = pins + skipped): papaparse reads a quote that is never
 * closed (or one with text after it) on into the lines after it, up to the next quote that seems
 * to close it. Such a row is taken apart again from the text it was read from (`feed` hands the
 * reader the text papaparse is given): its first line, where the quote opened, is skipped with a
 * reason that says so, and the lines it ran on into are read again as rows of their own (those of
 * them whose quotes are broken again, a line at a time).
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
  private dialect: Dialect = { delimiter: ',', linebreak: '\n' };
  /** The text papaparse was given, from the first line it has not handed over as a row yet. */
  private readonly text = new LineText('', 1);
  private fed = false;

  constructor(
    private readonly checker: PinChecker,
    private readonly named: CsvColumns = {},
    /** Told each good row's pin, line, and the GeoJSON feature it was checked as. */
    private readonly onPin: (checked: CheckedPin, line: number, feature: CsvFeature) => void = () => {},
  ) {
    checker.labelled((line) => `line ${line}`, true);
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

  /** The text papaparse is given, a piece at a time before it reads it (its byte-order mark dropped, as papaparse drops it). */
  feed(text: string): void {
    this.text.append(!this.fed && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    this.fed = true;
  }

  /** Checks that the file had a header; call when papaparse is done. */
  finish(): void {
    if (!this.header) throw new PinDataError('the CSV file is empty: it needs a header line naming its columns (lat, lng, title, …) and a line per pin');
  }

  /** One chunk of rows from papaparse. */
  take(results: Papa.ParseResult<string[]>): void {
    this.dialect = { delimiter: results.meta.delimiter || this.dialect.delimiter, linebreak: results.meta.linebreak || this.dialect.linebreak };
    this.text.mark = lineMark(this.dialect.linebreak);
    this.line = this.walk(results, this.line, this.text, 0);
    this.text.dropBefore(this.line, results.meta.cursor);
  }

  /**
   * The rows of one parse, the first at line `first`, taken out of `text` (which holds their
   * lines) again where their quotes are broken; `depth`: how often these lines were read already.
   * Returns the line after the last row.
   */
  private walk(results: Papa.ParseResult<string[]>, first: number, text: LineText, depth: number): number {
    const broken = new Set<number>();
    for (const error of results.errors) if (error.type === 'Quotes' && error.row !== undefined) broken.add(error.row);
    const rows = results.data;
    let next = first;
    for (let r = 0; r < rows.length; r++) {
      const cells = rows[r]!;
      const line = next;
      const lines = 1 + breaksIn(cells, this.dialect.linebreak);
      next += lines;
      if (!broken.has(r) && cells.length === 1 && cells[0]!.trim() === '') continue; // a blank line
      if (!this.header) {
        if (broken.has(r)) throw new PinDataError(`the CSV file's header line ${this.headerTrouble(text.lines(line, 1))}`);
        this.readHeader(cells, results.meta.delimiter === ';');
        continue;
      }
      if (broken.has(r)) this.takeApart(text.lines(line, lines), line, depth);
      else {
        this.rows++;
        const feature = this.row(cells, line);
        if (feature) this.onPin(feature.checked, line, feature.feature);
      }
    }
    return next;
  }

  /**
   * A row whose quotes are broken, read from `text` (its lines, the first at `line`): its first
   * line is skipped with what is wrong with it, and the lines after it are read again, as a file
   * (`REREADS` deep; then a line at a time, so that a file of broken quotes is not read over and
   * over).
   */
  private takeApart(text: string, line: number, depth: number): void {
    const mark = lineMark(this.dialect.linebreak);
    const end = text.indexOf(mark);
    const first = stripBreak(end < 0 ? text : text.slice(0, end));
    const rest = end < 0 ? '' : text.slice(end + 1);
    const filled = rest.replace(/\s+$/, '');
    const restLines = filled === '' ? 0 : countOf(filled, mark) + 1;
    const trouble = quoteTrouble(first, this.dialect.delimiter);
    const titleAt = this.column.title!;
    const title = (trouble?.column === titleAt ? trouble.cell : (this.parse(first).data[0]?.[titleAt] ?? '')).trim();
    const where = trouble ? this.columnCalled(trouble.column) : undefined;
    let problem =
      trouble?.kind === 'text after'
        ? `the ${where} column has text after its closing quote (${quote(trouble.after)})`
        : `a quote opened in the ${where ?? 'row'}${where ? ' column' : ''} is never closed`;
    if (restLines > 0) {
      const last = line + restLines;
      problem +=
        restLines === 1
          ? `; lines ${line}–${last} were read as one row, so line ${last} is read again on its own`
          : `; lines ${line}–${last} were read as one row, so lines ${line + 1}–${last} are read again on their own`;
    }
    this.rows++;
    this.checker.reject(line, problem, undefined, title === '' ? undefined : title);
    if (restLines === 0) return;
    if (depth < REREADS) {
      this.walk(this.parse(rest), line + 1, new LineText(rest, line + 1, mark), depth + 1);
      return;
    }
    const lines = rest.split(mark);
    for (let i = 0; i < lines.length; i++) {
      const one = stripBreak(lines[i]!);
      if (one.trim() !== '') this.walk(this.parse(one), line + 1 + i, new LineText(one, line + 1 + i, mark), depth + 1);
    }
  }

  /** Parses a piece of the file (its rows as papaparse reads them) as the file is read (by papaparse's own parser, lighter to start than `Papa.parse`). */
  private parse(text: string): Papa.ParseResult<string[]> {
    const config = { delimiter: this.dialect.delimiter, newline: this.dialect.linebreak, quoteChar: '"', escapeChar: '"' } as Papa.ParseConfig;
    return new Papa.Parser(config).parse(text, 0, false) as Papa.ParseResult<string[]>;
  }

  /** What is wrong with the header line's quotes. */
  private headerTrouble(line: string): string {
    const first = stripBreak(line.split(/\r?\n|\r/)[0]!);
    const trouble = quoteTrouble(first, this.dialect.delimiter);
    if (trouble?.kind === 'text after') return `has text after the closing quote of its column ${trouble.column + 1} (${quote(trouble.after)})`;
    return `has a quote that is never closed${trouble ? ` (in its column ${trouble.column + 1})` : ''}: a header name in quotes needs a closing quote`;
  }

  /** A column in messages: its header name, quoted (and cut short), or its number. */
  private columnCalled(index: number): string {
    const name = this.header?.[index];
    return name ? quote(name) : `${index + 1}${ordinal(index + 1)}`;
  }

  private readHeader(cells: string[], semicolons: boolean): void {
    const header = cells.map((cell) => cell.trim());
    const folded = header.map((name) => name.toLowerCase());
    const columns = `its columns: ${listNames(header.filter((name) => name !== ''))}`;
    for (const field of FIELDS) {
      const wanted = this.named[field];
      if (wanted !== undefined) {
        const at = folded.indexOf(wanted.trim().toLowerCase());
        if (at < 0) throw new PinDataError(`the config's csv.${field} names the column ${quote(wanted)}, which the CSV file does not have (${columns})`);
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
    const title = cell('title')!;
    // Reasons name the row by its line and title (its id, in a file without an id column, is its line again).
    const name = title === '' ? undefined : title;
    const id = this.column.id === undefined ? String(line) : cell('id')!;
    if (id === '') return this.checker.reject(line, `has no id (its ${this.columnName('id')} column is empty)`, undefined, name);
    const lat = this.coordinate(cell('lat')!, 'lat');
    if (typeof lat === 'string') return this.checker.reject(line, lat, id, name);
    const lng = this.coordinate(cell('lng')!, 'lng');
    if (typeof lng === 'string') return this.checker.reject(line, lng, id, name);
    if (title === '') return this.checker.reject(line, `has no title (its ${this.columnName('title')} column is empty)`, id, name);
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
    const checked = this.checker.check(feature, line, name);
    return checked && { checked, feature };
  }

  /** A coordinate's number, or why its cell is not one. */
  private coordinate(text: string, field: 'lat' | 'lng'): number | string {
    const word = FIELD_WORDS[field];
    if (text === '') return `has no ${word} (its ${this.columnName(field)} column is empty)`;
    if (DECIMAL.test(text)) return Number(text);
    if (this.decimalComma && DECIMAL_COMMA.test(text)) return Number(text.replace(',', '.'));
    return `${word} must be a number (its ${this.columnName(field)} column has ${quote(text)})`;
  }

  private columnName(field: Field): string {
    return quote(this.header![this.column[field]!]!);
  }
}

/** `names` quoted (each cut short) and listed, the first `NAMES_LISTED` of them and how many more: a header of a million cells is a short message. */
function listNames(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const listed = names.slice(0, NAMES_LISTED).map(quote).join(', ');
  return names.length > NAMES_LISTED ? `${listed} and ${(names.length - NAMES_LISTED).toLocaleString('en-US')} more` : listed;
}

const ordinal = (n: number) => (n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th');

/** The character lines are counted by: `\n` (also for `\r\n`), or `\r` in a file of `\r` line breaks. */
const lineMark = (linebreak: string) => (linebreak === '\r' ? '\r' : '\n');

/** A line without its line break's `\r`. */
const stripBreak = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

function countOf(text: string, mark: string): number {
  let count = 0;
  for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + 1)) count++;
  return count;
}

/**
 * What is wrong with the quotes of one line, read alone as papaparse reads it: the column (from 0)
 * where a quote is never closed, or is closed with more text after it (`after`, to the next
 * delimiter); `cell`: what that column holds up to its closing quote, or, never closed, up to the
 * next delimiter.
 */
export function quoteTrouble(line: string, delimiter: string): { column: number; kind: 'never closed' | 'text after'; cell: string; after: string } | undefined {
  let at = 0;
  for (let column = 0; ; column++) {
    if (line[at] !== '"') {
      const end = line.indexOf(delimiter, at);
      if (end < 0) return undefined;
      at = end + delimiter.length;
      continue;
    }
    let search = at + 1;
    for (;;) {
      const close = line.indexOf('"', search);
      if (close < 0) {
        const rest = line.slice(at + 1);
        const cut = rest.indexOf(delimiter);
        return { column, kind: 'never closed', cell: cut < 0 ? rest : rest.slice(0, cut), after: '' };
      }
      if (line[close + 1] === '"') {
        search = close + 2;
        continue;
      }
      // As papaparse reads it: a closing quote may have spaces after it before the delimiter.
      let after = close + 1;
      while (after < line.length && !line.startsWith(delimiter, after) && /\s/.test(line[after]!)) after++;
      if (after >= line.length) return undefined;
      if (line.startsWith(delimiter, after)) {
        at = after + delimiter.length;
        break;
      }
      const rest = line.slice(close + 1);
      const cut = rest.indexOf(delimiter);
      return { column, kind: 'text after', cell: line.slice(at + 1, close).replaceAll('""', '"'), after: cut < 0 ? rest : rest.slice(0, cut) };
    }
  }
}

/**
 * Text of lines, the first of them line `first`, kept from a line on: a row's lines are found in
 * it again by their numbers (counting `mark`s from the last one found, so a chunk's rows are found
 * in one pass over it).
 */
class LineText {
  mark = '\n';
  /** A line found last and where it starts. */
  private at: { line: number; offset: number };
  /** Where the text kept starts in all the text appended. */
  private base = 0;

  constructor(
    private text: string,
    private first: number,
    mark = '\n',
  ) {
    this.mark = mark;
    this.at = { line: first, offset: 0 };
  }

  append(more: string): void {
    this.text += more;
  }

  /** Where line `line` starts (the end of the text when it has no such line). */
  private offsetOf(line: number): number {
    if (line < this.at.line) this.at = { line: this.first, offset: 0 };
    let { offset } = this.at;
    for (let n = this.at.line; n < line; n++) {
      const end = this.text.indexOf(this.mark, offset);
      if (end < 0) return this.text.length;
      offset = end + 1;
    }
    this.at = { line, offset };
    return offset;
  }

  /** The text of `count` lines from line `line` on, without the line break after the last. */
  lines(line: number, count: number): string {
    const start = this.offsetOf(line);
    const end = this.offsetOf(line + count);
    const text = this.text.slice(start, end === this.text.length && !this.text.endsWith(this.mark) ? end : Math.max(start, end - 1));
    return this.mark === '\n' ? stripBreak(text) : text;
  }

  /**
   * Lets go of the lines before line `line`, which starts at `cursor` of all the text appended
   * (papaparse's cursor after the rows it handed over), found by counting lines if it does not.
   */
  dropBefore(line: number, cursor?: number): void {
    let offset = cursor === undefined ? -1 : cursor - this.base;
    if (!(offset === 0 || (offset > 0 && offset <= this.text.length && this.text[offset - 1] === this.mark))) offset = this.offsetOf(line);
    if (offset === 0) return;
    this.text = this.text.slice(offset);
    this.base += offset;
    this.first = line;
    this.at = { line, offset: 0 };
  }
}

/** How many line breaks the fields of one row hold (quoted fields may hold some). */
function breaksIn(cells: readonly string[], linebreak: string): number {
  const mark = lineMark(linebreak);
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
  checkHeaderLength(text);
  reader.feed(text);
  Papa.parse<string[]>(text, reader.parseConfig());
  reader.finish();
  return { pins, skipped: checker.skipped, warnings: checker.warnings, pinStyles: { ...pinStyles } };
}

/**
 * The chunks of a file's text with the first of them holding its whole first line (or all of a
 * file that has no line break): papaparse finds the delimiter in its first chunk. Throws a
 * `PinDataError` as soon as the first line is longer than `HEADER_MAX` (not after reading a file of
 * 50 MB without a line break whole).
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
    // Only the new chunk is looked at: a long line is not looked through again for each.
    if (!/[\r\n]/.test(chunk)) {
      if (head.length > HEADER_MAX + 1) throw new PinDataError(HEADER_TOO_LONG);
      continue;
    }
    checkHeaderLength(head);
    whole = true;
    yield head;
  }
  if (!whole && head !== '') {
    checkHeaderLength(head);
    yield head;
  }
}

/**
 * Reads a CSV file from a Node stream of text (the pin tiler's), a chunk at a time, handing
 * `reader` each chunk of rows; resolves once the file is read (and has a header), rejects with
 * what went wrong. The stream's first chunk must hold the whole header line (`withWholeFirstLine`).
 */
export function readCsvStream(input: NodeJS.ReadableStream, reader: CsvPinReader): Promise<void> {
  return new Promise((resolve, reject) => {
    // Heard before papaparse's own listener: the reader has each chunk before its rows (it finds a broken row's lines in them).
    input.on('data', (chunk: string | Buffer) => reader.feed(String(chunk)));
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
