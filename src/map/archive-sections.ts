import { formatBytes } from '../config/errors.ts';
import { InflateLimitError, inflateWithin } from './inflate.ts';
import { ArchiveError } from './pmtiles.ts';

/**
 * The sections a pre-tiled pin archive keeps after its tiles (`src/pins/archive-format.ts`), read
 * by the page a piece at a time: each piece is checked against the lengths its archive declares
 * and inflated within a limit, so a damaged or hostile archive costs at most that much memory and
 * is named, never a hang or a page that runs out of memory.
 */

/**
 * The most one piece of a section may have, gzipped or inflated (README, "Limits"). Far above what
 * `pinmap tile` writes (a bucket of about 64 pins, a block of a few KB; the search directory of a
 * million pins, about 1 MB), far below what hurts a page.
 */
export const SECTION_LIMITS = {
  /** One bucket of the pin index (the popups of about 64 pins). */
  indexBucket: 16_000_000,
  /** The search index's directory (one word per block). */
  searchDirectory: 32_000_000,
  /** One block of the search index. */
  searchBlock: 16_000_000,
  /** One block of the bubbles' pin table (64 ids, titles and looks). */
  leafBlock: 4_000_000,
} as const;

/** The sections, as messages name them. */
export type ArchiveSection = 'pin index' | 'search index' | "bubbles' pins";

/**
 * A section of a pin archive is damaged or over its limit, or the page refused to read it (a
 * redirect refused, the page's policy: `refused`): names the archive (`href`), the section and what
 * is wrong. `notice` is what the page shows; the rest of the map goes on.
 */
export class ArchiveSectionError extends Error {
  override name = 'ArchiveSectionError';
  constructor(
    readonly href: string,
    readonly section: ArchiveSection,
    readonly detail: string,
    options?: ErrorOptions,
    readonly refused = false,
  ) {
    super(`${href}: its ${section} ${refused ? 'could not be read' : `${section === "bubbles' pins" ? 'are' : 'is'} damaged`} (${detail})`, options);
  }

  /** The notice the page shows. */
  get notice(): string {
    return `Could not read the pin archive ${this.message}`;
  }
}

/**
 * Gzipped JSON, inflated within `limit` bytes (`inflateWithin`: a gzip bomb stops there) and
 * parsed. `what` names the piece ("bucket 3") in the `ArchiveSectionError` for one that is over
 * the limit, or is not gzipped JSON.
 */
export async function inflateJson(data: ArrayBuffer, limit: number, href: string, section: ArchiveSection, what: string): Promise<unknown> {
  if (data.byteLength > limit) throw new ArchiveSectionError(href, section, `${what} has ${formatBytes(data.byteLength)}, more than the ${formatBytes(limit)} allowed`);
  try {
    return JSON.parse(new TextDecoder().decode(await inflateWithin(data, limit))) as unknown;
  } catch (error) {
    if (error instanceof InflateLimitError) throw new ArchiveSectionError(href, section, `${what} inflates to more than the ${formatBytes(limit)} allowed`, { cause: error });
    throw new ArchiveSectionError(href, section, `${what} is not gzipped JSON`, { cause: error });
  }
}

/**
 * Reads `length` bytes at `offset` with `read`, for a piece of `section` that must lie within
 * `[from, to)` (its section, as the archive's metadata declares it) and be at most `limit` long:
 * a piece outside, over the limit, or cut short by the file's end is an `ArchiveSectionError`, and
 * so is a read the page refused (a redirect, its policy: the section "could not be read", not
 * "is damaged"); a passing failure (network, server error) stays as it is, to be tried again.
 */
export async function readPiece(
  read: (offset: number, length: number) => Promise<ArrayBuffer>,
  offset: number,
  length: number,
  bounds: { from: number; to: number; limit: number },
  href: string,
  section: ArchiveSection,
  what: string,
): Promise<ArrayBuffer> {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || length <= 0 || offset < bounds.from || offset + length > bounds.to) {
    throw new ArchiveSectionError(href, section, `${what} lies at bytes ${offset} to ${offset + length}, outside its section (${bounds.from} to ${bounds.to})`);
  }
  if (length > bounds.limit) throw new ArchiveSectionError(href, section, `${what} has ${formatBytes(length)}, more than the ${formatBytes(bounds.limit)} allowed`);
  let data: ArrayBuffer;
  try {
    data = await read(offset, length);
  } catch (error) {
    if (error instanceof ArchiveError && !error.transient) throw new ArchiveSectionError(href, section, `${what}: ${error.message}`, { cause: error }, error.refusal);
    throw error;
  }
  if (data.byteLength !== length) throw new ArchiveSectionError(href, section, `${what} is cut short: ${length} bytes declared, ${data.byteLength} read`);
  return data;
}
