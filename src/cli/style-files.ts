import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * What `pinmap serve --style <file>` serves from the style's folder: only the files the style
 * refers to (its sprite, glyphs, and its sources' `url`, `tiles`, `data` and `urls`, with the
 * tiles of a TileJSON in the folder; font faces), each URL relative to the style as the map
 * resolves it. Never a dotfile, nor a file a symlink leads to outside the folder or to a
 * dotfile: the folder may be a home folder with keys beside the style.
 */

/** The placeholders of URL templates, and the path text each one stands for. */
const TOKENS: Record<string, string> = {
  z: '\\d+',
  x: '\\d+',
  y: '\\d+',
  range: '\\d+-\\d+',
  fontstack: '[^/]+',
  ratio: '(?:@\\d+x)?',
  quadkey: '[0-3]*',
  prefix: '[0-9a-f]{2}',
  'bbox-epsg-3857': '[-+0-9.,eE]+',
};

/** The largest TileJSON file read for its tiles. */
const MAX_TILEJSON = 1 << 20;

/** The origin the style's URLs are resolved on, to tell the folder's own from other servers'. */
const ORIGIN = 'http://pinmap-serve.invalid';

/** The files a style refers to in its folder. */
export class StyleFiles {
  /** The folder, its symlinks resolved. */
  private readonly folder: string;
  private readonly patterns: RegExp[] = [];

  /**
   * Reads the style file (and the TileJSON files in its folder it names); `prefix` is the served
   * path of the folder (`/style/`). Throws what is wrong with the style file.
   */
  constructor(
    private readonly styleFile: string,
    prefix: string,
  ) {
    this.folder = realpathSync(dirname(styleFile));
    const styleUrl = `${ORIGIN}${prefix}${encodeURIComponent(basename(styleFile))}`;
    const style = readJson(styleFile, 'the style file');
    if (typeof style !== 'object' || style === null || Array.isArray(style)) throw new Error('the style file must hold a JSON object (a MapLibre style)');
    for (const [url, suffix] of styleUrls(style as Record<string, unknown>)) {
      const path = this.add(url, styleUrl, prefix, suffix);
      // A TileJSON in the folder: its tiles are the folder's too, relative to it.
      if (path === undefined || suffix !== 'tilejson') continue;
      const file = this.fileAt(path);
      if (file === undefined || statSync(file).size > MAX_TILEJSON) continue;
      let tileJson: unknown;
      try {
        tileJson = readJson(file, 'TileJSON');
      } catch {
        continue;
      }
      const tiles = (tileJson as { tiles?: unknown } | null)?.tiles;
      if (Array.isArray(tiles)) for (const tile of tiles) if (typeof tile === 'string') this.add(tile, `${ORIGIN}${prefix}${path.split('/').map(encodeURIComponent).join('/')}`, prefix);
    }
  }

  /**
   * The file served for `path` (decoded, under the folder's prefix), or undefined when the style
   * does not refer to it, or it is a dotfile, no file, or outside the folder once links are followed.
   */
  fileFor(path: string): string | undefined {
    if (path === basename(this.styleFile)) return this.styleFile;
    if (!this.patterns.some((pattern) => pattern.test(path))) return undefined;
    return this.fileAt(path);
  }

  /** The real file at `path` in the folder, when it is one, inside it and no dotfile (after links). */
  private fileAt(path: string): string | undefined {
    if (!isPlainPath(path)) return undefined;
    let real: string;
    try {
      real = realpathSync(join(this.folder, ...path.split('/')));
      if (!statSync(real).isFile()) return undefined;
    } catch {
      return undefined;
    }
    const inside = relative(this.folder, real);
    if (inside === '' || isAbsolute(inside) || !isPlainPath(inside.split(sep).join('/'))) return undefined;
    return real;
  }

  /** Adds the pattern of one URL (template) the style names, when it is in the folder; returns its path there. */
  private add(url: string, base: string, prefix: string, suffix?: string): string | undefined {
    const archive = url.startsWith('pmtiles://') ? url.slice('pmtiles://'.length) : url;
    const names: string[] = [];
    const marked = archive.replace(/\{([^{}]+)\}/g, (_, name: string) => {
      names.push(name);
      return `pinmaptoken${names.length - 1}pinmaptoken`;
    });
    let resolved: URL;
    try {
      resolved = new URL(marked, base);
    } catch {
      return undefined;
    }
    if (resolved.origin !== ORIGIN || !resolved.pathname.startsWith(prefix)) return undefined;
    let path: string;
    try {
      path = decodeURIComponent(resolved.pathname.slice(prefix.length));
    } catch {
      return undefined;
    }
    const source = escapeRegExp(path).replace(/pinmaptoken(\d+)pinmaptoken/g, (_, i: string) => TOKENS[names[Number(i)]!] ?? '[^/]+');
    const ending = suffix === 'sprite' ? '(?:@2x)?\\.(?:json|png)' : '';
    this.patterns.push(new RegExp(`^${source}${ending}$`));
    return names.length === 0 && ending === '' ? path : undefined;
  }
}

/** The URLs a style names, each with what it is when that matters (a sprite's base, a TileJSON). */
function styleUrls(style: Record<string, unknown>): [string, ('sprite' | 'tilejson')?][] {
  const urls: [string, ('sprite' | 'tilejson')?][] = [];
  const text = (value: unknown, kind?: 'sprite' | 'tilejson') => {
    if (typeof value === 'string') urls.push([value, kind]);
  };
  text(style.glyphs);
  if (Array.isArray(style.sprite)) for (const sprite of style.sprite) text((sprite as { url?: unknown } | null)?.url, 'sprite');
  else text(style.sprite, 'sprite');
  for (const source of Object.values(objectOr(style.sources))) {
    const { type, url, tiles, data, urls: videos } = objectOr(source);
    const tileJson = (type === 'vector' || type === 'raster' || type === 'raster-dem') && typeof url === 'string' && !url.startsWith('pmtiles://');
    text(url, tileJson ? 'tilejson' : undefined);
    for (const tile of Array.isArray(tiles) ? tiles : []) text(tile);
    for (const video of Array.isArray(videos) ? videos : []) text(video);
    text(data);
  }
  for (const faces of Object.values(objectOr(style['font-faces']))) {
    for (const face of Array.isArray(faces) ? faces : [faces]) text(typeof face === 'string' ? face : objectOr(face).url);
  }
  return urls;
}

/** A path with no empty, `.`-led (dotfile, `.`, `..`) or backslashed segment, and no NUL. */
function isPlainPath(path: string): boolean {
  return path.split('/').every((segment) => segment !== '' && !segment.startsWith('.') && !segment.includes('\\') && !segment.includes('\0'));
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function readJson(file: string, what: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} is not JSON: ${(error as Error).message}`);
  }
}
