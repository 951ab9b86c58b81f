/**
 * Generates Pinmap's offline raster overlay into `fixtures/raster/hatch/` (or into the directory
 * given as the first command-line argument):
 *
 * - `{z}/{x}/{y}.png`: 256 px Web Mercator tiles (XYZ scheme, y = 0 at the north), zooms 0..5.
 *   Each shows a thin diagonal hatch over land and is transparent elsewhere. Every tile of the
 *   pyramid is written, so the map never asks for a tile that is not there; tiles with no land all
 *   share the same small, fully transparent PNG.
 * - `README.md`: what is in the folder, how to regenerate it, source, licence and attribution.
 *
 * The hybrid view lays these tiles over the vector basemap. The land is the same Natural Earth
 * 1:50m land the basemap draws, so any misalignment between raster and vector shows at once along
 * the coasts. The hatch lines sit at fixed positions in global pixel coordinates of each zoom,
 * so they run on unbroken from one tile into the next.
 *
 * Source: Natural Earth 1:50m land (public domain) through the `world-atlas` TopoJSON package.
 * The land is rasterised (anti-aliased) with `@napi-rs/canvas` (Skia); the hatch is painted from
 * that coverage in plain code and the tiles are encoded with `pngjs`.
 *
 * The output is deterministic: the same inputs give byte-identical files (fixed drawing and
 * writing order, no timestamps or other PNG metadata). `scripts/generate-raster.test.ts`
 * regenerates into a temporary directory and compares every file with the committed copy. The
 * bytes hang on the exact `@napi-rs/canvas` version (its anti-aliasing, hence the pinned version)
 * and on Node's zlib: a zlib that compresses differently fails that test with the same pixels.
 *
 * Run with `npm run fixtures:raster` (`tsx scripts/generate-raster.ts [outDir]`).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Position } from 'geojson';
import { createCanvas, Path2D } from '@napi-rs/canvas';
import { PNG } from 'pngjs';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { unwrapLine } from './antimeridian.ts';
import { recordFixture } from './fixture-inputs.ts';

const require = createRequire(import.meta.url);

/** The repository's committed copy. */
export const DEFAULT_OUT_DIR = fileURLToPath(new URL('../fixtures/raster/hatch/', import.meta.url));

export const MIN_ZOOM = 0;
export const MAX_ZOOM = 5;
export const TILE_SIZE = 256;

/** Distance between neighbouring hatch lines, in pixels along x (or y). */
export const HATCH_SPACING = 8;
/** A pixel is on a hatch line where (globalX + globalY) mod HATCH_SPACING equals this. */
export const HATCH_PHASE = 0;
/** Dark warm brown. */
export const HATCH_RGB = [92, 72, 40] as const;
/** 40 % opacity (of 255). */
export const HATCH_ALPHA = 102;

export const RASTER_ATTRIBUTION = 'Hatching: Natural Earth (public domain)';

/** Web Mercator's latitude limit: the world is a square. */
const MAX_LAT = 85.0511287798;
const DEG = Math.PI / 180;
/** Rings whose every point is this close to a pole are Natural Earth's cut along the pole, not land. */
const POLE_EPS_LAT = 89.9;

type Ring = Position[];

export interface GenerateResult {
  /** Files written: tiles and README.md. */
  files: number;
  /** Bytes written over all files. */
  bytes: number;
  tiles: number;
  /** Tiles with some hatch on them. */
  landTiles: number;
  tileBytes: number;
}

// ---------------------------------------------------------------------------------------------
// Land, made planar
// ---------------------------------------------------------------------------------------------

/**
 * The land as planar rings in longitude/latitude, each with whether it is a hole. Longitudes may
 * leave [-180, 180] where a ring crosses the antimeridian; the tiles draw such rings once more a
 * world to the east or west. A ring around a pole is closed along that pole, and the ring that
 * runs along the pole itself is dropped.
 */
const loadLand = (): { ring: Ring; hole: boolean }[] => {
  const topology = JSON.parse(readFileSync(require.resolve('world-atlas/land-50m.json'), 'utf8')) as Topology<{
    land: GeometryCollection;
  }>;
  const rings: { ring: Ring; hole: boolean }[] = [];
  for (const { geometry } of feature(topology, topology.objects.land).features) {
    if (geometry?.type !== 'Polygon' && geometry?.type !== 'MultiPolygon') continue;
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    for (const polygon of polygons) {
      polygon.forEach((source, index) => {
        if (source.every(([, lat = 0]) => Math.abs(lat) > POLE_EPS_LAT)) return;
        const { line: ring, shift } = unwrapLine(source);
        if (shift !== 0) {
          const poleLat = ring.reduce((sum, [, lat = 0]) => sum + lat, 0) < 0 ? -90 : 90;
          const first = ring[0] ?? [0, 0];
          const last = ring[ring.length - 1] ?? [0, 0];
          ring.push([last[0] ?? 0, poleLat], [first[0] ?? 0, poleLat]);
        }
        rings.push({ ring, hole: index > 0 });
      });
    }
  }
  return rings;
};

// ---------------------------------------------------------------------------------------------
// Projection and drawing
// ---------------------------------------------------------------------------------------------

/** Longitude/latitude to global pixel coordinates at a zoom (world width `worldSize` px). */
const project = ([lon = 0, lat = 0]: Position, worldSize: number): [number, number] => {
  const phi = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * DEG;
  const x = ((lon + 180) / 360) * worldSize;
  const y = ((1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2) * worldSize;
  return [x, y];
};

/** Twice the signed area of a ring in pixel coordinates (positive: clockwise on screen). */
const signedArea = (ring: [number, number][]): number => {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x1, y1] = ring[j] ?? [0, 0];
    const [x2, y2] = ring[i] ?? [0, 0];
    sum += x1 * y2 - x2 * y1;
  }
  return sum;
};

/**
 * All land at one zoom as a single path in global pixel coordinates. Outer rings run clockwise
 * and holes anticlockwise, so a non-zero fill gives the union of the land minus its lakes, and
 * rings that meet along the antimeridian join without a seam. A ring that reaches past ±180° is
 * added again one world east or west so that the other side of the world gets its share.
 */
const landPath = (rings: { ring: Ring; hole: boolean }[], worldSize: number): Path2D => {
  const result = new Path2D();
  for (const { ring, hole } of rings) {
    const points = ring.map((point) => project(point, worldSize));
    if (points.length < 3) continue;
    const clockwise = signedArea(points) > 0;
    if (clockwise === hole) points.reverse();
    const xs = points.map(([x]) => x);
    const minX = Math.min(...xs);
    const maxX = Math.max(...xs);
    for (const copy of [-1, 0, 1]) {
      const dx = copy * worldSize;
      if (maxX + dx <= 0 || minX + dx >= worldSize) continue;
      points.forEach(([x, y], i) => (i === 0 ? result.moveTo(x + dx, y) : result.lineTo(x + dx, y)));
      result.closePath();
    }
  }
  return result;
};

/**
 * Paints one tile from its land coverage (the alpha of an opaque fill of the land, 0..255).
 * The lines are placed in global pixel coordinates, so they run on unbroken across tile edges;
 * whole pixels rather than anti-aliased strokes give crisp lines that compress to almost nothing.
 * Colours are set here rather than blended by Skia, so every painted pixel has exactly the hatch
 * colour and only its opacity varies (with the share of land at the coasts).
 * Returns null when nothing is painted.
 */
const paintHatch = (coverage: Uint8ClampedArray, tileX: number, tileY: number): Buffer | null => {
  const rgba = Buffer.alloc(TILE_SIZE * TILE_SIZE * 4);
  let painted = false;
  for (let py = 0; py < TILE_SIZE; py++) {
    const globalY = tileY * TILE_SIZE + py;
    // The first pixel of this row on a line; the rest follow every HATCH_SPACING pixels.
    const first = (((HATCH_PHASE - tileX * TILE_SIZE - globalY) % HATCH_SPACING) + HATCH_SPACING) % HATCH_SPACING;
    for (let px = first; px < TILE_SIZE; px += HATCH_SPACING) {
      const i = (py * TILE_SIZE + px) * 4;
      const alpha = Math.round((HATCH_ALPHA * (coverage[i + 3] ?? 0)) / 255);
      if (alpha === 0) continue;
      rgba.set([...HATCH_RGB, alpha], i);
      painted = true;
    }
  }
  return painted ? rgba : null;
};

/**
 * An RGBA PNG. No row filters and zlib's default strategy (pngjs defaults to run-length only): each
 * row of hatch is the row above shifted by one pixel, which deflate finds as a plain repeat.
 */
const encodePng = (rgba: Buffer): Buffer => {
  const png = new PNG({ width: TILE_SIZE, height: TILE_SIZE });
  png.data = rgba;
  return PNG.sync.write(png, { colorType: 6, deflateLevel: 9, deflateStrategy: 0, filterType: 0 });
};

// ---------------------------------------------------------------------------------------------
// README
// ---------------------------------------------------------------------------------------------

const README = `# Pinmap offline raster overlay: hatch over land

Generated by \`scripts/generate-raster.ts\`: do not edit by hand. Regenerate with

\`\`\`sh
npm run fixtures:raster
\`\`\`

(\`npm run fixtures\` regenerates it together with the basemap and the pins.) The output is
deterministic; \`scripts/generate-raster.test.ts\` regenerates it into a temporary directory and
fails if any file here differs ("fixtures are stale").

## Contents

- \`{z}/{x}/{y}.png\`: ${TILE_SIZE} px PNG tiles, Web Mercator, XYZ scheme (y = 0 at the north),
  every tile of zooms ${MIN_ZOOM} to ${MAX_ZOOM}, latitudes ±85.0511°. Served by Vite at
  \`raster/hatch/{z}/{x}/{y}.png\`.

Each tile shows diagonal lines (45°, bottom left to top right), one pixel wide and
${HATCH_SPACING} px apart along a row, in rgb(${HATCH_RGB.join(', ')}) at ${Math.round((HATCH_ALPHA / 255) * 100)} % opacity, over land only;
everything else is transparent. A pixel is on a line where
(globalX + globalY) mod ${HATCH_SPACING} = ${HATCH_PHASE} in the global pixel coordinates of its zoom, so the lines
run on unbroken across tile edges. At the coasts a line pixel is as opaque as the share of it
that is land (anti-aliasing). Tiles without land are all the same transparent PNG.

The land is Natural Earth 1:50m land, the same land the vector basemap (\`fixtures/basemap\`)
draws: raster and vector must meet exactly at the coasts.

## Source and licence

- Natural Earth 1:50m land (https://www.naturalearthdata.com/), through the \`world-atlas\`
  package (\`world-atlas/land-50m.json\`): public domain.

Suggested attribution: "${RASTER_ATTRIBUTION}".
`;

// ---------------------------------------------------------------------------------------------
// Pyramid
// ---------------------------------------------------------------------------------------------

export async function generateRaster(outDir: string = DEFAULT_OUT_DIR): Promise<GenerateResult> {
  const land = loadLand();

  // The canvas only measures how much of each pixel is land; opaque black, so alpha is coverage.
  const canvas = createCanvas(TILE_SIZE, TILE_SIZE);
  const ctx = canvas.getContext('2d');
  const empty = encodePng(Buffer.alloc(TILE_SIZE * TILE_SIZE * 4));

  // Old zoom folders go too (in case the zoom range shrank), but nothing else that lives there.
  mkdirSync(outDir, { recursive: true });
  for (const name of readdirSync(outDir)) {
    if (/^\d+$/.test(name)) rmSync(path.join(outDir, name), { recursive: true, force: true });
  }
  rmSync(path.join(outDir, 'README.md'), { force: true });

  let tiles = 0;
  let landTiles = 0;
  let tileBytes = 0;
  for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) {
    const count = 2 ** z;
    const landAtZoom = landPath(land, count * TILE_SIZE);
    for (let x = 0; x < count; x++) {
      const dir = path.join(outDir, String(z), String(x));
      mkdirSync(dir, { recursive: true });
      for (let y = 0; y < count; y++) {
        ctx.resetTransform();
        ctx.clearRect(0, 0, TILE_SIZE, TILE_SIZE);
        // User space is global pixel space; the tile is a window onto it.
        ctx.setTransform(1, 0, 0, 1, -x * TILE_SIZE, -y * TILE_SIZE);
        ctx.fillStyle = '#000';
        ctx.fill(landAtZoom, 'nonzero');
        const rgba = paintHatch(ctx.getImageData(0, 0, TILE_SIZE, TILE_SIZE).data, x, y);
        const data = rgba ? encodePng(rgba) : empty;
        writeFileSync(path.join(dir, `${y}.png`), data);
        tiles++;
        if (rgba) landTiles++;
        tileBytes += data.byteLength;
      }
    }
  }

  writeFileSync(path.join(outDir, 'README.md'), README);
  return { files: tiles + 1, bytes: tileBytes + Buffer.byteLength(README), tiles, landTiles, tileBytes };
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? DEFAULT_OUT_DIR);
  const started = performance.now();
  const result = await generateRaster(outDir);
  await recordFixture('scripts/generate-raster.ts', outDir, DEFAULT_OUT_DIR);
  const seconds = (performance.now() - started) / 1000;
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(2)} MB`;
  console.log(`Raster overlay written to ${path.relative(process.cwd(), outDir) || '.'}`);
  console.log(`  ${result.tiles} tiles (zooms ${MIN_ZOOM}-${MAX_ZOOM}), ${result.landTiles} with land, ${mb(result.tileBytes)}`);
  console.log(`  ${result.files} files in all, ${mb(result.bytes)}`);
  console.log(`  done in ${seconds.toFixed(1)} s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
