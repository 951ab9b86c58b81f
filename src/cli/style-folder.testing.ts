import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A style file in a home folder, as a user may keep one: what it refers to, and what must never be served. */
export interface StyleFolder {
  /** The style file. */
  style: string;
  /** What the style refers to, by its path under the served `/style/`, with its contents. */
  referred: Record<string, string>;
  /** What must never come back, by its path under `/style/` (a file beside the style, a dotfile, a link out), with its contents. */
  secrets: Record<string, string>;
}

/**
 * Writes under `root` a home folder with a style file that refers to a sprite, glyphs, a tile
 * template and a TileJSON (whose own tiles are relative to it), beside a key, a dotfile, a
 * dot folder, an unreferenced subfolder, and symlinks that lead out of the folder, one of them
 * with a name the tile template matches.
 */
export function writeStyleFolder(root: string): StyleFolder {
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  write(join(outside, 'passwd'), 'SECRET-OUTSIDE root:x:0:0');
  const style = {
    version: 8,
    sprite: 'sprites/sprite',
    glyphs: 'fonts/{fontstack}/{range}.pbf',
    sources: {
      streets: { type: 'vector', tiles: ['tiles/{z}/{x}/{y}.pbf'] },
      more: { type: 'vector', url: 'tilejson/tiles.json' },
      places: { type: 'geojson', data: './places.geojson' },
      elsewhere: { type: 'vector', tiles: ['https://tiles.example.com/{z}/{x}/{y}.pbf'] },
    },
    layers: [],
  };
  const referred: Record<string, string> = {
    'style.json': JSON.stringify(style),
    'sprites/sprite.json': '{}',
    'sprites/sprite.png': 'PNG-1x',
    'sprites/sprite@2x.json': '{}',
    'fonts/Noto Sans Regular/0-255.pbf': 'GLYPHS-0',
    'tiles/0/0/0.pbf': 'TILE-0',
    'tilejson/tiles.json': JSON.stringify({ tilejson: '3.0.0', tiles: ['t/{z}/{x}/{y}.mvt'] }),
    'tilejson/t/3/2/1.mvt': 'TILE-TJ',
    'places.geojson': JSON.stringify({ type: 'FeatureCollection', features: [] }),
  };
  for (const [path, text] of Object.entries(referred)) write(join(home, path), text);
  const secrets: Record<string, string> = {
    'id_ed25519': 'SECRET-KEY',
    '.env': 'SECRET-ENV',
    '.ssh/config': 'SECRET-SSH',
    'documents/notes.txt': 'SECRET-NOTES',
    'tiles/0/0/.hidden.pbf': 'SECRET-DOT-TILE',
    'fonts/.cache/0-255.pbf': 'SECRET-DOT-FONT',
  };
  for (const [path, text] of Object.entries(secrets)) write(join(home, path), text);
  // Links out of the folder, named as the style's templates would ask for them.
  for (const path of ['tiles/1/0/0.pbf', 'sprites/sprite@2x.png', 'fonts/Noto Sans Regular/256-511.pbf', 'passwd']) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    symlinkSync(join(outside, 'passwd'), join(home, path));
    secrets[path] = 'SECRET-OUTSIDE root:x:0:0';
  }
  // A link inside the folder, to a dotfile: what it leads to is a dotfile.
  symlinkSync(join(home, '.env'), join(home, 'tiles/0/0/5.pbf'));
  secrets['tiles/0/0/5.pbf'] = 'SECRET-ENV';
  return { style: join(home, 'style.json'), referred, secrets };
}
