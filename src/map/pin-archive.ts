import { PMTiles } from 'pmtiles';
import { PIN_ARCHIVE, type PinArchiveMetadata, type PinIndexEntry, type PinTileProperties } from './pin-archive-format.ts';
import { describeValue, isHttpUrl, mergeStyles, type Pin } from './pin-data.ts';
import type { PinOptions } from './pin-options.ts';

/**
 * A pre-tiled pin archive as the page uses it (README, "Pre-tiled pins"): its header and metadata
 * read once with range requests, its looks resolved against the config's `pinStyles`, and its
 * pins found by id for `?pin=` when the archive carries their places.
 */
export interface PinArchive {
  /** The MapLibre source URL: `pmtiles://` and the archive's absolute URL. */
  url: string;
  metadata: PinArchiveMetadata;
  /** Each look's pin options: the file's category style with config's over it, then the pins' own. */
  looks: Readonly<PinOptions>[];
  /** The pin with this id, when the archive carries the pins' places (small sets); else undefined. */
  find(id: string): { pin: Pin; aloneMask: number } | undefined;
  /** Whether the archive carries every pin's place. */
  readonly indexed: boolean;
}

/** The archive is not a pin archive of this Pinmap (another tool made it, or another version). */
export class PinArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PinArchiveError';
  }
}

/** `pmtiles://…` for a pre-tiled pin archive, not a GeoJSON URL. */
export const isPinArchiveUrl = (pins: unknown): pins is string => typeof pins === 'string' && pins.startsWith('pmtiles://');

/**
 * Opens the archive at `pins` (`pmtiles://<URL or path>`, resolved against `baseUrl`): reads its
 * header and metadata here; the map's source then reads its tiles through the `pmtiles://`
 * protocol (`pmtiles.ts`), which every map has. Rejects with the fetch's reason (an HTTP status, no network, not an archive), or
 * a `PinArchiveError` naming what the metadata lacks.
 */
export async function openPinArchive(pins: string, pinStyles: Record<string, PinOptions>, baseUrl: string): Promise<PinArchive> {
  const href = new URL(pins.slice('pmtiles://'.length), baseUrl).href;
  const archive = new PMTiles(href);
  const header = await archive.getHeader();
  if (header.tileType !== 1) throw new PinArchiveError(`${href} holds no vector tiles (its tile type is ${header.tileType}); pins need an archive made by pinmap-tile-pins`);
  const raw = (await archive.getMetadata()) as Record<string, unknown> | null;
  const metadata = checkMetadata(raw, href);

  const styles = mergeStyles(metadata.pinStyles, pinStyles, []);
  const looks = metadata.looks.map((look) => Object.freeze({ ...(look.category === undefined ? {} : styles[look.category]), ...look.pin }));
  let byId: Map<string, PinIndexEntry> | undefined;
  const index = metadata.index;
  return {
    url: `pmtiles://${href}`,
    metadata,
    looks,
    indexed: index !== undefined,
    find(id) {
      if (!index) return undefined;
      byId ??= new Map(index.map((entry) => [entry[0], entry]));
      const entry = byId.get(id);
      if (!entry) return undefined;
      const [, lng, lat, aloneMask, title, description, url, category, look] = entry;
      const pin: Pin = { id, title, description, lngLat: [lng, lat], options: looks[look] ?? {} };
      if (url !== null) pin.url = url;
      if (category !== null) pin.category = category;
      return { pin, aloneMask };
    },
  };
}

/** The archive's `pinmap` metadata, or a `PinArchiveError` naming what is missing or wrong. */
function checkMetadata(raw: Record<string, unknown> | null, href: string): PinArchiveMetadata {
  const made = 'pins need an archive made by pinmap-tile-pins';
  const pinmap = raw?.pinmap as Partial<PinArchiveMetadata> | undefined;
  if (typeof pinmap !== 'object' || pinmap === null) throw new PinArchiveError(`${href} has no "pinmap" member in its metadata; ${made}`);
  if (pinmap.version !== PIN_ARCHIVE.version) {
    throw new PinArchiveError(`${href} is a pin archive of version ${describeValue(pinmap.version)}; this Pinmap reads version ${PIN_ARCHIVE.version}`);
  }
  const layers = raw?.vector_layers;
  if (!Array.isArray(layers) || !layers.some((layer) => (layer as { id?: unknown } | null)?.id === PIN_ARCHIVE.layer)) {
    throw new PinArchiveError(`${href} has no "${PIN_ARCHIVE.layer}" layer in its metadata's vector_layers; ${made}`);
  }
  if (!Array.isArray(pinmap.looks)) throw new PinArchiveError(`${href}: its metadata's pinmap.looks is ${describeValue(pinmap.looks)}, not a list of pin looks; ${made}`);
  if (typeof pinmap.count !== 'number') throw new PinArchiveError(`${href}: its metadata's pinmap.count is ${describeValue(pinmap.count)}, not a number; ${made}`);
  return { ...pinmap, pinStyles: typeof pinmap.pinStyles === 'object' && pinmap.pinStyles !== null ? pinmap.pinStyles : {} } as PinArchiveMetadata;
}

/**
 * A pin as a tile's feature describes it (clicked on the map), or why it cannot be shown: a
 * feature without an id or a title, from an archive another tool made.
 */
export function pinFromTile(properties: Record<string, unknown>, lngLat: [number, number], archive: PinArchive): Pin | string {
  const { id, title, description, url, category, look } = properties as Partial<Record<keyof PinTileProperties, unknown>>;
  if (typeof id !== 'string' && typeof id !== 'number') return `a pin in ${archive.url} has no "id" property`;
  if (typeof title !== 'string') return `pin "${String(id)}" in ${archive.url} has no "title" property`;
  const options = typeof look === 'number' ? archive.looks[look] : undefined;
  const pin: Pin = { id: String(id), title, description: typeof description === 'string' ? description : '', lngLat, options: options ?? {} };
  if (typeof url === 'string' && isHttpUrl(url)) pin.url = url;
  if (typeof category === 'string') pin.category = category;
  return pin;
}
