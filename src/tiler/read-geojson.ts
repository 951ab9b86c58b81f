import type { Readable } from 'node:stream';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamValues } from 'stream-json/streamers/stream-values.js';

/** The top-level members of a FeatureCollection that the pins need besides its features. */
const MEMBERS = new Set(['type', 'attribution', 'pinStyles']);

/** What `readFeatureCollection` found besides the features. */
export interface CollectionMembers {
  /** `type`, `attribution` and `pinStyles` as found (absent ones are missing). */
  members: Record<string, unknown>;
  /** How many features were read (0 when there was no `features` array). */
  featureCount: number;
  /** Whether the top level was an object with a `features` array. */
  hasFeatureArray: boolean;
  /** What `features` was when it was not an array (e.g. 'an object'), else undefined. */
  featuresWere: string | undefined;
}

/**
 * Reads a GeoJSON FeatureCollection from a stream, a feature at a time (stream-json): each
 * element of the top-level `features` array is assembled on its own and handed to `onFeature`
 * with its index and the members read so far, then dropped, so a file of any size is read in little memory. The members
 * `type`, `attribution` and `pinStyles` are kept, wherever they are in the object; everything
 * else is skipped unread. Rejects with the parser's message when the file is not JSON.
 */
export async function readFeatureCollection(input: Readable, onFeature: (feature: unknown, index: number, members: Readonly<Record<string, unknown>>) => void): Promise<CollectionMembers> {
  const members: Record<string, unknown> = {};
  /** Where each picked value comes from, in order: a member's name or a feature's index. */
  const origins: (string | number)[] = [];
  let hasFeatureArray = false;
  let featuresWere: string | undefined;
  let featureCount = 0;

  const picked = (stack: (string | number | null)[], token: { name: string }): boolean => {
    const [top, second] = stack;
    if (stack.length === 1 && top === 'features') {
      if (token.name === 'startArray') hasFeatureArray = true;
      else featuresWere = token.name === 'startObject' ? 'an object' : token.name.replace(/Value$|^start/, '').toLowerCase() || 'a value';
      return false;
    }
    if (stack.length === 1 && typeof top === 'string' && MEMBERS.has(top)) {
      origins.push(top);
      return true;
    }
    if (stack.length === 2 && top === 'features' && typeof second === 'number') {
      origins.push(second);
      return true;
    }
    return false;
  };

  await new Promise<void>((resolve, reject) => {
    const pipeline = chain([
      input,
      // Packed values only: a third of the tokens, and what the assembler reads anyway.
      parser({ streamValues: false }),
      pick({ filter: picked }),
      streamValues(),
      ({ value }: { value: unknown }) => {
        const origin = origins.shift();
        if (typeof origin === 'number') {
          featureCount++;
          onFeature(value, origin, members);
        } else if (origin !== undefined) {
          members[origin] = value;
        }
      },
    ]);
    pipeline.on('error', reject);
    input.on('error', reject);
    pipeline.on('finish', resolve);
    pipeline.on('end', resolve);
    pipeline.resume();
  });
  return { members, featureCount, hasFeatureArray, featuresWere };
}
