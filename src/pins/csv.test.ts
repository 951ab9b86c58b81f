import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvPinReader, detectDelimiter, isCsvFile, parseCsvPins, readCsvStream, withWholeFirstLine } from './csv.ts';
import { PinChecker, PinDataError } from './data.ts';
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

  it('skips each bad row with its line number and reason, and keeps every good row', () => {
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
      'line 3 ("b"): latitude 95 is outside -90..90',
      'line 4 ("c"): has no longitude (its "lng" column is empty)',
      'line 6 ("d"): latitude must be a number (its "lat" column has "ten")',
      'line 7 ("e"): has no title (its "title" column is empty)',
      'line 8 ("a"): duplicate id "a" (line 2 has it and is shown)',
    ]);
    expect(set.skipped.map((skipped) => skipped.index)).toEqual([3, 4, 6, 7, 8]);
  });

  it('names an unclosed quote by its line, and keeps the rows before it', () => {
    const set = parseCsvPins('title,lat,lng\nOk,1,2\n"Broken,3,4\nLost,5,6\n');
    expect(places(set)).toEqual([['2', 'Ok', 2, 1]]);
    expect(set.skipped.map((skipped) => skipped.reason)).toEqual(['line 3: a quoted field is not closed (a " is missing)']);
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
    expect(checker.skipped.map((skipped) => skipped.reason)).toEqual(['line 5 ("3"): has no title (its "title" column is empty)']);
    expect(reader.rows).toBe(3);
  });

  it('rejects with the reason when the file cannot be pins', async () => {
    const reader = new CsvPinReader(new PinChecker({}));
    await expect(readCsvStream(Readable.from(['a,b\n1,2\n']).setEncoding('utf8'), reader)).rejects.toThrow('the CSV file has no latitude column');
  });
});
