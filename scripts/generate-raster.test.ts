import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { listFiles } from './fixture-files.ts';
import { compareWithGenerator } from './fixture-inputs.ts';
import {
  DEFAULT_OUT_DIR,
  HATCH_ALPHA,
  HATCH_PHASE,
  HATCH_RGB,
  HATCH_SPACING,
  MAX_ZOOM,
  MIN_ZOOM,
  RASTER_ATTRIBUTION,
  TILE_SIZE,
  generateRaster,
} from './generate-raster.ts';

/** Global pixel coordinates of a longitude/latitude at a zoom (Web Mercator). */
const globalPixel = (lon: number, lat: number, z: number): [number, number] => {
  const worldSize = TILE_SIZE * 2 ** z;
  const phi = (lat * Math.PI) / 180;
  const x = ((lon + 180) / 360) * worldSize;
  const y = ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * worldSize;
  return [x, y];
};

/** The XYZ tile that covers a longitude/latitude. */
const tileAt = (lon: number, lat: number, z: number): { z: number; x: number; y: number } => {
  const [x, y] = globalPixel(lon, lat, z);
  return { z, x: Math.floor(x / TILE_SIZE), y: Math.floor(y / TILE_SIZE) };
};

interface Tile {
  z: number;
  x: number;
  y: number;
  png: PNG;
}

const readTile = ({ z, x, y }: { z: number; x: number; y: number }): Tile => ({
  z,
  x,
  y,
  png: PNG.sync.read(readFileSync(path.join(DEFAULT_OUT_DIR, String(z), String(x), `${y}.png`))),
});

const alphaAt = (tile: Tile, px: number, py: number): number => tile.png.data[(py * TILE_SIZE + px) * 4 + 3] ?? 0;

/** Whether the pixel (px, py) of a tile is on a hatch line, in the global coordinates of its zoom. */
const onHatchLine = (tile: Tile, px: number, py: number): boolean =>
  (tile.x * TILE_SIZE + px + tile.y * TILE_SIZE + py) % HATCH_SPACING === HATCH_PHASE;

interface Census {
  /** Pixels with any opacity. */
  painted: number;
  /** Painted pixels at full hatch opacity (inside land, away from the coast). */
  solid: number;
  /** Painted pixels whose colour is not the hatch colour. */
  offColour: number;
  /** Painted pixels that are not on a hatch line. */
  offLine: number;
  /** Pixels on a hatch line that are fully transparent (sea). */
  clearOnLine: number;
  /** Pixels more opaque than the hatch. */
  tooOpaque: number;
}

const census = (tile: Tile): Census => {
  const result: Census = { painted: 0, solid: 0, offColour: 0, offLine: 0, clearOnLine: 0, tooOpaque: 0 };
  const { data } = tile.png;
  for (let py = 0; py < TILE_SIZE; py++) {
    for (let px = 0; px < TILE_SIZE; px++) {
      const i = (py * TILE_SIZE + px) * 4;
      const alpha = data[i + 3] ?? 0;
      const onLine = onHatchLine(tile, px, py);
      if (alpha === 0) {
        if (onLine) result.clearOnLine++;
        continue;
      }
      result.painted++;
      if (!onLine) result.offLine++;
      if (alpha === HATCH_ALPHA) result.solid++;
      if (data[i] !== HATCH_RGB[0] || data[i + 1] !== HATCH_RGB[1] || data[i + 2] !== HATCH_RGB[2]) result.offColour++;
      if (alpha > HATCH_ALPHA) result.tooOpaque++;
    }
  }
  return result;
};

/** Pixels painted within `radius` px of a longitude/latitude. */
const paintedAround = (lon: number, lat: number, z: number, radius: number): number => {
  const [gx, gy] = globalPixel(lon, lat, z);
  const tile = readTile(tileAt(lon, lat, z));
  const cx = Math.floor(gx) - tile.x * TILE_SIZE;
  const cy = Math.floor(gy) - tile.y * TILE_SIZE;
  let painted = 0;
  for (let py = Math.max(0, cy - radius); py <= Math.min(TILE_SIZE - 1, cy + radius); py++) {
    for (let px = Math.max(0, cx - radius); px <= Math.min(TILE_SIZE - 1, cx + radius); px++) {
      if (alphaAt(tile, px, py) > 0) painted++;
    }
  }
  return painted;
};

/** A tile's share of hatch pixels when all of it is land. */
const FULL_SHARE = 1 / HATCH_SPACING;

describe('raster overlay (fixtures/raster/hatch)', () => {
  it(
    'is up to date: its files are what its generator makes of its inputs now, checked by the record of them or made again (else run `npm run fixtures:raster`)',
    async () => {
      const { onlyOneSide, differing } = await compareWithGenerator('scripts/generate-raster.ts', DEFAULT_OUT_DIR, generateRaster);
      expect(onlyOneSide).toEqual([]);
      expect(differing).toEqual([]);
    },
    180_000,
  );

  it('has every tile of the pyramid and a README with the attribution', () => {
    const files = listFiles(DEFAULT_OUT_DIR);
    const tiles = files.filter((file) => file.endsWith('.png'));
    const expected: string[] = [];
    for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) {
      for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y++) expected.push(`${z}/${x}/${y}.png`);
    }
    expect(expected).toHaveLength(1365);
    expect(tiles).toEqual(expected.sort());
    expect(files.filter((file) => !file.endsWith('.png'))).toEqual(['README.md']);
    expect(readFileSync(path.join(DEFAULT_OUT_DIR, 'README.md'), 'utf8')).toContain(RASTER_ATTRIBUTION);
  });

  it('stays under the 6 MB budget', () => {
    const bytes = listFiles(DEFAULT_OUT_DIR).reduce((sum, file) => sum + statSync(path.join(DEFAULT_OUT_DIR, file)).size, 0);
    expect(bytes).toBeLessThan(6 * 1024 * 1024);
  });

  it('hatches the inland Sahara and central Asia in the hatch colour, on global hatch lines only', () => {
    for (const tile of [readTile(tileAt(15, 23, 5)), readTile(tileAt(75, 45, 4))]) {
      const { painted, solid, offColour, offLine, tooOpaque } = census(tile);
      expect(painted / TILE_SIZE ** 2).toBeGreaterThan(0.9 * FULL_SHARE);
      expect(solid / painted).toBeGreaterThan(0.95);
      expect(offColour).toBe(0);
      expect(offLine).toBe(0);
      expect(tooOpaque).toBe(0);
    }
  });

  it('leaves the open ocean fully transparent', () => {
    // The South Pacific, far from any island.
    for (const tile of [readTile(tileAt(-120, -40, 5)), readTile(tileAt(-150, -45, 4))]) {
      expect(census(tile).painted).toBe(0);
    }
  });

  it('has land and sea in a coastal tile, with the lines fading out at the coast and never off them', () => {
    // Lisbon and the Tagus estuary.
    const tile = readTile(tileAt(-9.2, 38.7, 5));
    const { painted, solid, offColour, offLine, clearOnLine, tooOpaque } = census(tile);
    expect(painted / TILE_SIZE ** 2).toBeGreaterThan(0.1 * FULL_SHARE);
    expect(clearOnLine / TILE_SIZE ** 2).toBeGreaterThan(0.1 * FULL_SHARE);
    // Anti-aliased coast: some line pixels are partly land.
    expect(solid).toBeGreaterThan(0);
    expect(painted).toBeGreaterThan(solid);
    expect(offColour).toBe(0);
    expect(offLine).toBe(0);
    expect(tooOpaque).toBe(0);
  });

  it('follows the land closely: inland is hatched, the sea and lakes just off it are not', () => {
    // Madrid, and the sea 50 km off Lisbon (at zoom 5 a pixel is about 4 km there).
    expect(paintedAround(-3.7, 40.4, 5, 8)).toBeGreaterThan(10);
    expect(paintedAround(-10.0, 38.7, 5, 4)).toBe(0);
    // The Norwegian Sea, at the latitudes where Eurasia's coast crosses the antimeridian.
    expect(paintedAround(2.0, 67.0, 5, 8)).toBe(0);
    // The Caspian Sea is a hole in the land.
    expect(paintedAround(51.0, 42.0, 5, 8)).toBe(0);
  });

  it('draws land on both sides of the antimeridian and down to the south edge of the world', () => {
    const z = 4;
    // Wrangel Island lies across 180°: hatched on both sides of it.
    expect(paintedAround(179.5, 71.2, 5, 4)).toBeGreaterThan(0);
    expect(paintedAround(-179.5, 71.2, 5, 4)).toBeGreaterThan(0);
    // East Antarctica reaches down to the south edge of the world (under the Ross Ice Shelf,
    // Natural Earth's land stops short of it).
    for (let x = tileAt(0, -80, z).x; x <= tileAt(135, -80, z).x; x++) {
      const tile = readTile({ z, x, y: 2 ** z - 1 });
      for (let px = 0; px < TILE_SIZE; px++) {
        if (onHatchLine(tile, px, TILE_SIZE - 1)) expect(alphaAt(tile, px, TILE_SIZE - 1)).toBe(HATCH_ALPHA);
      }
    }
  });
});
