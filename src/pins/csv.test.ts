import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvPinReader, detectDelimiter, isCsvFile, parseCsvPins, readCsvStream, withWholeFirstLine } from './csv.ts';
import { PinChecker, PinDataError, describePinSet } from './data.ts';
import type { Pin } from './types.ts';

/** A CSV file made of rows of cells, joined with `delimiter` and `newline` (cells are written as given). */
const csv = (rows: string[][], delimiter = ',', newline = '\n') => rows.map((row) => row.join(delimiter)).join(newline) + newline;

const places = (set: { pins: Pin[] }) => set.pins.map((pin) => [pin.id, pin.title, ...pin.lngLat]);

describe('parseCsvPins', () => {
  it('reads a comma-separated file with its usual column names, any case, and keeps the other columns as properties', () => {
    const text = csv([
      ['ID', 'Name', 'Latitude', 'Longitude', 'Category', 'Description', 'URL', 'Population'],
      ['paris', 'Paris', '48.8566', '2.3522', 'capital', 'Capital of France', 'https://paris.fr', '2102650'],
      ['lyon', 'Lyon', '45.76', '4.84', '', '', '', ''],
    ]);
    const set = parseCsvPins(text, {}, { searchFields: ['Population'], popupFields: ['Population'] });
    expect(set.skipped).toEqual([]);
    expect(set.pins[0]).toMatchObject({
      id: 'paris',
      title: 'Paris',
      lngLat: [2.3522, 48.8566],
      category: 'capital',
      description: 'Capital of France',
      url: 'https://paris.fr',
      fields: { Population: '2102650' },
      popupFields: [['Population', '2102650']],
    });
    expect(set.pins[1]).toEqual({ id: 'lyon', title: 'Lyon', description: '', lngLat: [4.84, 45.76], options: {} });
  });

  it('reads a semicolon-separated file with decimal commas, as spreadsheets in many locales save it', () => {
    const text = csv(
      [
        ['id', 'title', 'lat', 'lon'],
        ['wien', 'Wien', '48,2082', '16,3738'],
        ['graz', 'Graz', '47.07', '15.44'],
        ['linz', '"Linz; an der Donau"', '-48,3', '14,29'],
      ],
      ';',
      '\r\n',
    );
    expect(places(parseCsvPins(text))).toEqual([
      ['wien', 'Wien', 16.3738, 48.2082],
      ['graz', 'Graz', 15.44, 47.07],
      ['linz', 'Linz; an der Donau', 14.29, -48.3],
    ]);
  });

  it('reads a tab-separated file, drops a byte-order mark, and takes x and y for coordinates', () => {
    const text = `\uFEFF${csv([['y', 'x', 'name'], ['1.5', '2.5', 'Somewhere']], '\t')}`;
    const set = parseCsvPins(text);
    expect(places(set)).toEqual([['2', 'Somewhere', 2.5, 1.5]]);
  });

  it('keeps a quoted field that holds a newline, a delimiter and a doubled quote, and counts lines after it right', () => {
    const text = 'title,lat,lng,description\n"Café ""Rouge""",48.85,2.35,"line one\nline two, with a comma"\nAfter,48.86,200,\n';
    const set = parseCsvPins(text);
    expect(set.pins[0]).toMatchObject({ id: '2', title: 'Café "Rouge"', description: 'line one\nline two, with a comma' });
    // Without an id column a pin's id is its line: the quoted newline makes the next row line 4.
    expect(set.pins[1]).toMatchObject({ id: '4', title: 'After', lngLat: [-160, 48.86] });
  });

  it('skips each bad row with its line number, title and reason, and keeps every good row', () => {
    const text = csv([
      ['id', 'title', 'lat', 'lng'],
      ['a', 'Good A', '10', '20'],
      ['b', 'Far north', '95', '20'],
      ['c', 'No longitude', '10', ''],
      [],
      ['d', 'Words', 'ten', '20'],
      ['e', '', '10', '20'],
      ['a', 'Same id', '11', '21'],
      ['f', 'Good F', '12', '22'],
    ]);
    const set = parseCsvPins(text);
    expect(set.pins.map((pin) => pin.id)).toEqual(['a', 'f']);
    expect(set.skipped.map((skipped) => skipped.reason)).toEqual([
      'line 3 ("Far north"): latitude 95 is outside -90..90',
      'line 4 ("No longitude"): has no longitude (its "lng" column is empty)',
      'line 6 ("Words"): latitude must be a number (its "lat" column has "ten")',
      'line 7: has no title (its "title" column is empty)',
      'line 8 ("Same id"): duplicate id "a" (line 2 has it and is shown)',
    ]);
    expect(set.skipped.map((skipped) => skipped.index)).toEqual([3, 4, 6, 7, 8]);
  });

  it('takes the columns config names, case aside, over the usual ones', () => {
    const text = csv([['Breite', 'Länge', 'Ort', 'lat'], ['47,37', '8,54', 'Zürich', 'not this one']], ';');
    const set = parseCsvPins(text, {}, { csv: { lat: 'breite', lng: 'LÄNGE', title: 'Ort' } });
    expect(set.pins[0]).toMatchObject({ title: 'Zürich', lngLat: [8.54, 47.37] });
  });

  it('refuses a file without a coordinate or title column, or with a column config names that it lacks, naming its columns', () => {
    expect(() => parseCsvPins('name,lat\nA,1\n')).toThrow(new PinDataError('the CSV file has no longitude column: name one lng, lon, long, longitude, x, or name yours in the config as csv.lng (its columns: "name", "lat")'));
    expect(() => parseCsvPins('lat,lng\n1,2\n')).toThrow('the CSV file has no title column: name one title, name');
    expect(() => parseCsvPins('title,lat,lng\n', {}, { csv: { category: 'Kind' } })).toThrow('the config\'s csv.category names the column "Kind", which the CSV file does not have (its columns: "title", "lat", "lng")');
    expect(() => parseCsvPins('')).toThrow('the CSV file is empty');
    expect(() => parseCsvPins('\n\n')).toThrow('the CSV file is empty');
  });

  it('gives a category its config style', () => {
    const set = parseCsvPins('title,lat,lng,category\nA,1,2,cafe\n', { cafe: { markerColor: '#ff0000' } });
    expect(set.pins[0]!.options).toEqual({ markerColor: '#ff0000' });
  });
});

describe('detectDelimiter and isCsvFile', () => {
  it('takes the delimiter the header line has most of, outside quotes', () => {
    expect(detectDelimiter('a,b,c\n1;2;3;4;5')).toBe(',');
    expect(detectDelimiter('a;b;"c,d,e"\n')).toBe(';');
    expect(detectDelimiter('a\tb;c\tc')).toBe('\t');
    expect(detectDelimiter('single')).toBe(',');
  });

  it('tells CSV from GeoJSON by type, then extension, then text', () => {
    expect(isCsvFile('https://x.org/pins', 'text/csv; charset=utf-8', '{')).toBe(true);
    expect(isCsvFile('https://x.org/pins.csv', 'application/json', 'a,b')).toBe(false);
    expect(isCsvFile('pins/places.tsv', null, '')).toBe(true);
    expect(isCsvFile('pins/places.geojson?v=2', 'application/octet-stream', 'lat,lng')).toBe(false);
    expect(isCsvFile('pins/places', null, '\uFEFF  lat,lng')).toBe(true);
    expect(isCsvFile('pins/places', null, ' {"type":')).toBe(false);
    expect(isCsvFile('pins/places', null, '<!doctype html>')).toBe(false);
  });
});

describe('readCsvStream', () => {
  it('reads a stream a byte at a time (a quoted newline and each multi-byte letter split between chunks) as the text is read whole', async () => {
    const text = '\uFEFFid;title;lat;lng;note\r\n1;Zürich;47,37;8,54;"two\r\nlines"\r\n2;Genève;46,2;6,15;\r\n3;;0;0;\r\n';
    const bytes = Buffer.from(text, 'utf8');
    const chunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    const input = Readable.from(withWholeFirstLine(Readable.from(chunks).setEncoding('utf8')));
    const checker = new PinChecker({}).showFields(['note']);
    const pins: Pin[] = [];
    const reader = new CsvPinReader(checker, {}, (checked) => pins.push(checked.pin));
    await readCsvStream(input, reader);
    expect(pins).toEqual(parseCsvPins(text, {}, { popupFields: ['note'] }).pins);
    expect(pins.map((pin) => pin.title)).toEqual(['Zürich', 'Genève']);
    expect(checker.skipped.map((skipped) => skipped.reason)).toEqual(['line 5: has no title (its "title" column is empty)']);
    expect(reader.rows).toBe(3);
  });

  it('rejects with the reason when the file cannot be pins', async () => {
    const reader = new CsvPinReader(new PinChecker({}));
    await expect(readCsvStream(Readable.from(['a,b\n1,2\n']).setEncoding('utf8'), reader)).rejects.toThrow('the CSV file has no latitude column');
  });
});

/** Reads `text` as the page does and as the tiler does (a stream of chunks, of 97 bytes for a small file, rows split between them): the pins, the reasons, and how many rows the reader counted. */
async function readBothWays(text: string) {
  const page = parseCsvPins(text);
  const checker = new PinChecker({});
  const streamed: Pin[] = [];
  const reader = new CsvPinReader(checker, {}, (checked) => streamed.push(checked.pin));
  const bytes = Buffer.from(text, 'utf8');
  const size = bytes.length > 2 ** 20 ? 2 ** 20 : 97;
  const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  await readCsvStream(Readable.from(withWholeFirstLine(Readable.from(chunks).setEncoding('utf8'))), reader);
  expect(streamed).toEqual(page.pins);
  expect(checker.skipped).toEqual(page.skipped);
  return { pins: page.pins, reasons: page.skipped.map((skipped) => skipped.reason), rows: reader.rows };
}

describe('broken quotes: every row is shown or reported', () => {
  it('reads again the good rows an unclosed quote and text after a closing quote ran on into, in a file of 302 good rows', async () => {
    const good = (i: number) => (i % 2 === 0 ? `p${i},"Place ${i}, the ${i}th",${(i % 80) - 40},${i % 170}` : `p${i},Place ${i},${(i % 80) - 40},${i % 170}`);
    const lines = ['id,title,lat,lng'];
    for (let i = 1; i <= 302; i++) {
      if (i === 100) lines.push('bad1,"Unclosed title,10,20');
      if (i === 201) lines.push('bad2,"Café "Rouge" Paris,10,20');
      lines.push(good(i));
    }
    const { pins, reasons, rows } = await readBothWays(`${lines.join('\n')}\n`);
    expect(pins).toHaveLength(302);
    expect(pins.map((pin) => pin.id)).toEqual(Array.from({ length: 302 }, (_, i) => `p${i + 1}`));
    expect(pins[99]).toMatchObject({ id: 'p100', title: 'Place 100, the 100th' });
    expect(reasons).toEqual([
      'line 101 ("Unclosed title"): a quote opened in the "title" column is never closed; lines 101–102 were read as one row, so line 102 is read again on its own',
      'line 203 ("Café"): the "title" column has text after its closing quote ("Rouge\\" Paris"); lines 203–205 were read as one row, so lines 204–205 are read again on their own',
    ]);
    expect(pins.length + reasons.length).toBe(rows);
    expect(rows).toBe(304);
  });

  it('reports an unclosed quote on the last line, with or without a line break after it, by the column it opened in', async () => {
    for (const end of ['', '\n', '\r\n\r\n']) {
      const { pins, reasons, rows } = await readBothWays(`Name,Latitude,Longitude\nOk,1,2\nLast,3,"4${end}`);
      expect(pins.map((pin) => pin.title)).toEqual(['Ok']);
      expect(reasons).toEqual(['line 3 ("Last"): a quote opened in the "Longitude" column is never closed']);
      expect(rows).toBe(2);
    }
  });

  it('shows a line a broken quote ran on into when it is a good row, reports it when it is a bad one, and a row with a line break in quotes after them', async () => {
    const swallowed = await readBothWays('title;lat;lng\r\n"Broken;3;4\r\nLost;5;6\r\nFar;95;6\r\n"Quoted";7;8\r\n');
    expect(swallowed.pins.map((pin) => [pin.id, pin.title])).toEqual([['3', 'Lost'], ['5', 'Quoted']]);
    expect(swallowed.reasons).toEqual([
      'line 2 ("Broken"): a quote opened in the "title" column is never closed; lines 2–5 were read as one row, so lines 3–5 are read again on their own',
      'line 4 ("Far"): latitude 95 is outside -90..90',
    ]);
    expect(swallowed.rows).toBe(4);
    const chain = await readBothWays('title,lat,lng\n"a,1,2\n"b,1,2\n\n"c,1,2\nGood,1,1\nA,1,2,"two\nlines"\n');
    expect(chain.pins.map((pin) => [pin.id, pin.title])).toEqual([['6', 'Good'], ['7', 'A']]);
    expect(chain.reasons).toEqual([
      'line 2 ("a"): a quote opened in the "title" column is never closed; lines 2–8 were read as one row, so lines 3–8 are read again on their own',
      'line 3 ("b"): a quote opened in the "title" column is never closed; lines 3–8 were read as one row, so lines 4–8 are read again on their own',
      'line 5 ("c"): a quote opened in the "title" column is never closed; lines 5–8 were read as one row, so lines 6–8 are read again on their own',
    ]);
    expect(chain.pins.length + chain.reasons.length).toBe(chain.rows);
    // A file of quotes never closed is not read over and over: each of its lines is reported.
    const broken = parseCsvPins(`title,lat,lng\n${'"Never closed,1,2\n'.repeat(5_000)}`);
    expect(broken.pins).toEqual([]);
    expect(broken.skipped.map((skipped) => skipped.index)).toEqual(Array.from({ length: 5_000 }, (_, i) => i + 2));
  });

  it('refuses a header line whose quote is never closed, saying so', () => {
    expect(() => parseCsvPins('"title,lat,lng\nA,1,2\n')).toThrow(new PinDataError("the CSV file's header line has a quote that is never closed (in its column 1): a header name in quotes needs a closing quote"));
  });
});

describe('messages stay short', () => {
  const long = 'x'.repeat(1000);
  const cut = `"${'x'.repeat(80)}…"`;

  it('cuts header names, cells and titles at 80 characters, and lists at most 12 header names', () => {
    expect(() => parseCsvPins(`title,lat,${long}\n`)).toThrow(`(its columns: "title", "lat", ${cut})`);
    const names = Array.from({ length: 20 }, (_, i) => `c${i}`);
    expect(() => parseCsvPins(`${names.join(',')}\n`)).toThrow(`(its columns: ${names.slice(0, 12).map((name) => `"${name}"`).join(', ')} and 8 more)`);
    expect(() => parseCsvPins('title,lat,lng\n', {}, { csv: { category: long } })).toThrow(`names the column ${cut}, which`);
    const set = parseCsvPins(`title,lat,lng\n${long},${long},1\n"${long},1,2\n`);
    expect(set.skipped.map((skipped) => skipped.reason)).toEqual([
      `line 2 (${cut}): latitude must be a number (its "lat" column has ${cut})`,
      `line 3 (${cut}): a quote opened in the "title" column is never closed`,
    ]);
  });

  it('answers a 50 MB line without a line break at once with a short message, in the page and in the tiler, and a 50 MB row with a short reason', async () => {
    const line = 'name,x,'.repeat(50e6 / 7);
    const message = "the CSV file's first line is longer than 100,000 characters: it should be a header naming the columns (lat, lng, title, …), with a line per pin after it (are its line breaks missing?)";
    expect(() => parseCsvPins(line)).toThrow(new PinDataError(message));
    const chunks = Array.from({ length: 50 }, (_, i) => line.slice(i * 1e6, (i + 1) * 1e6));
    await expect(readCsvStream(Readable.from(withWholeFirstLine(Readable.from(chunks))), new CsvPinReader(new PinChecker({})))).rejects.toThrow(message);
    const set = parseCsvPins(`title,lat,lng\n"${line}`);
    const report = describePinSet(set);
    expect(report.notice).toBe('1 pin could not be shown');
    expect(report.console).toEqual(['1 pin could not be shown:', `  line 2 ("name"): a quote opened in the "title" column is never closed`]);
  });
});
