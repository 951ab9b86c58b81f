import { closeSync, openSync, readSync } from 'node:fs';
import { extname } from 'node:path';

/**
 * What a file given as pins (or as a config) is when it is plainly not pin data, told by its first bytes (its
 * "magic number"), whatever its name: a spreadsheet, an image, a PDF, an archive, UTF-16 text…
 * with what to do instead. Undefined for anything that may be text (GeoJSON, CSV) or an archive
 * of pins; those are read and their own problems named.
 */
export function fileKind(file: string): FileKind | undefined {
  return describe(readHead(file, 1024), extname(file).toLowerCase());
}

/** What a file is (`an Excel workbook`), and what to do instead. */
export interface FileKind {
  what: string;
  advice: string;
}

const SAVE_AS_CSV = 'save it as CSV (in Excel: File > Save As > CSV UTF-8), or export it as GeoJSON';
const NOT_PINS = 'pins come from a GeoJSON or CSV file (or a .pmtiles archive made by `pinmap tile`)';

/** What the bytes `head` (the file's first ones) are, for a file ending in `extension`. */
export function describe(head: Uint8Array, extension: string): FileKind | undefined {
  const starts = (...bytes: number[]) => bytes.every((byte, i) => head[i] === byte);
  const ascii = new TextDecoder('latin1').decode(head);
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) {
    if (['.xlsx', '.xlsm', '.xltx', '.xlsb'].includes(extension) || ascii.includes('xl/')) return { what: 'an Excel workbook', advice: SAVE_AS_CSV };
    if (extension === '.ods' || ascii.includes('opendocument.spreadsheet')) return { what: 'an OpenDocument spreadsheet', advice: SAVE_AS_CSV };
    if (extension === '.numbers') return { what: 'a Numbers spreadsheet', advice: 'export it as CSV (File > Export To > CSV)' };
    if (extension === '.kmz') return { what: 'a KMZ file (zipped KML)', advice: 'convert it to GeoJSON (for example with ogr2ogr)' };
    if (extension === '.docx' || ascii.includes('word/')) return { what: 'a Word document', advice: NOT_PINS };
    return { what: 'a ZIP archive', advice: 'unzip it and give the GeoJSON or CSV file inside' };
  }
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) {
    if (extension === '.doc') return { what: 'a Word document', advice: NOT_PINS };
    return { what: 'an Excel workbook (the older .xls kind)', advice: SAVE_AS_CSV };
  }
  if (ascii.startsWith('%PDF-')) return { what: 'a PDF document', advice: NOT_PINS };
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { what: 'a PNG image', advice: NOT_PINS };
  if (starts(0xff, 0xd8, 0xff)) return { what: 'a JPEG image', advice: NOT_PINS };
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return { what: 'a GIF image', advice: NOT_PINS };
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return { what: 'a WebP image', advice: NOT_PINS };
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return { what: 'a TIFF image', advice: NOT_PINS };
  if (starts(0x1f, 0x8b)) return { what: 'gzip-compressed', advice: 'decompress it first (gunzip)' };
  if (ascii.startsWith('Rar!') || starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) return { what: 'a compressed archive (RAR or 7z)', advice: 'extract the GeoJSON or CSV file inside' };
  if (ascii.startsWith('SQLite format 3\0')) return { what: 'an SQLite database (a GeoPackage or MBTiles file?)', advice: 'export the pins as GeoJSON or CSV' };
  if (starts(0x00, 0x00, 0x27, 0x0a)) return { what: 'a shapefile', advice: 'convert it to GeoJSON (for example with ogr2ogr)' };
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff)) return { what: 'UTF-16 text', advice: 'save it as UTF-8 (in Excel: CSV UTF-8)' };
  if (ascii.startsWith('PMTiles') && extension !== '.pmtiles') return { what: 'a PMTiles archive', advice: 'name it with .pmtiles to serve it as one' };
  const text = ascii.replace(/^\u00ef\u00bb\u00bf/, '').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return { what: 'an HTML page', advice: NOT_PINS };
  if (text.startsWith('<')) {
    if (text.includes('<kml')) return { what: 'a KML file', advice: 'convert it to GeoJSON (for example with ogr2ogr)' };
    if (text.includes('<gpx')) return { what: 'a GPX file', advice: 'convert it to GeoJSON (for example with ogr2ogr)' };
  }
  return undefined;
}

function readHead(file: string, length: number): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
