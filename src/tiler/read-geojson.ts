import type { Readable } from 'node:stream';
import { describeValue } from '../pins/data.ts';

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
  /** What the file held when it was not a JSON object (e.g. 'an array'), else undefined. */
  topWas: string | undefined;
}

/** Thrown when the file is not JSON; the message says where. */
export class NotJsonError extends Error {
  constructor(message: string) {
    super(`the file is not JSON: ${message}`);
    this.name = 'NotJsonError';
  }
}

/**
 * Reads a GeoJSON FeatureCollection from a stream, a feature at a time: each element of the
 * top-level `features` array is handed to `onFeature` as `JSON.parse` makes it, with its index and
 * the members read so far, then dropped, so a file of any size is read in little memory. The
 * members `type`, `attribution` and `pinStyles` are kept, wherever they are in the object; other
 * members are skipped (their brackets and strings must balance, their insides are not parsed).
 * Rejects with a `NotJsonError` naming the byte, and the feature, where the file stops being JSON.
 */
export async function readFeatureCollection(input: Readable, onFeature: (feature: unknown, index: number, members: Readonly<Record<string, unknown>>) => void): Promise<CollectionMembers> {
  const scanner = new CollectionScanner(onFeature);
  for await (const chunk of input) scanner.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer));
  return scanner.end();
}

/** What the scanner expects next, outside the value it is reading. */
const enum Expect {
  Top,
  FirstKey,
  Key,
  Colon,
  MemberValue,
  AfterMember,
  FirstFeature,
  Feature,
  AfterFeature,
  End,
}

/** What the value being read is for. */
const enum Purpose {
  Top,
  Key,
  Member,
  Features,
  Feature,
  Skip,
}

/** The kind of the value being read, by its first byte. */
const enum Kind {
  String,
  Container,
  Scalar,
}

const BOM = [0xef, 0xbb, 0xbf];
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** Bytes a number, true, false or null may start with. */
const isScalarStart = (byte: number): boolean => byte === 0x2d || (byte >= 0x30 && byte <= 0x39) || byte === 0x74 || byte === 0x66 || byte === 0x6e;

/**
 * The byte-level reader behind `readFeatureCollection`. It follows the JSON structure only as
 * deep as the top-level object's members and the `features` array's elements; each value it keeps
 * is cut out whole (strings and brackets tracked byte by byte: UTF-8 never puts an ASCII byte
 * inside a multi-byte character) and parsed by `JSON.parse`, which checks it completely.
 */
class CollectionScanner {
  private expect = Expect.Top;
  /** Bytes before the current chunk. */
  private offset = 0;
  private readonly members: Record<string, unknown> = {};
  private key = '';
  private featureIndex = 0;
  private featureCount = 0;
  private hasFeatureArray = false;
  private featuresWere: string | undefined;
  private topWas: string | undefined;
  /** How many bytes of a byte order mark the file has begun with; -1 once past it. */
  private bomBytes = 0;

  // The value being read, if any.
  private reading = false;
  private purpose = Purpose.Top;
  private kind = Kind.Scalar;
  private keep = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Where the value started (in the file). */
  private valueStart = 0;
  /** Its bytes in earlier chunks, when it spans chunks. */
  private pieces: Buffer[] = [];

  constructor(private readonly onFeature: (feature: unknown, index: number, members: Readonly<Record<string, unknown>>) => void) {}

  push(chunk: Buffer): void {
    let i = 0;
    // A byte order mark is not JSON, but editors write it; it is skipped.
    for (; this.bomBytes >= 0 && i < chunk.length; i++) {
      if (chunk[i] !== BOM[this.bomBytes]) {
        if (this.bomBytes > 0) this.unexpected(chunk[i]!, i, 'the rest of a byte order mark');
        this.bomBytes = -1;
        break;
      }
      if (++this.bomBytes === BOM.length) this.bomBytes = -1;
    }
    let from = this.reading ? 0 : -1;
    while (i < chunk.length) {
      if (this.reading) {
        const end = this.scanValue(chunk, i);
        if (end < 0) break;
        this.finishValue(chunk, from, end);
        i = end;
        continue;
      }
      const byte = chunk[i]!;
      if (isSpace(byte)) {
        i++;
        continue;
      }
      if (this.structural(byte, i)) {
        i++;
        continue;
      }
      // A value starts here.
      from = i;
      this.beginValue(byte, i);
      i++;
    }
    if (this.reading && this.keep) this.pieces.push(chunk.subarray(Math.max(from, 0)));
    this.offset += chunk.length;
  }

  end(): { members: Record<string, unknown>; featureCount: number; hasFeatureArray: boolean; featuresWere: string | undefined; topWas: string | undefined } {
    if (this.reading && this.kind === Kind.Scalar && this.depth === 0) {
      // A number, true, false or null at the very end of the file ends there.
      this.finishValue(Buffer.alloc(0), 0, 0);
    }
    if (this.reading || this.expect !== Expect.End) {
      throw new NotJsonError(`it ends early, ${this.where()}`);
    }
    return { members: this.members, featureCount: this.featureCount, hasFeatureArray: this.hasFeatureArray, featuresWere: this.featuresWere, topWas: this.topWas };
  }

  /** Handles a byte between values (a bracket, comma or colon); false when a value starts here. */
  private structural(byte: number, i: number): boolean {
    switch (this.expect) {
      case Expect.Top:
        return byte === OPEN_OBJECT && this.to(Expect.FirstKey);
      case Expect.FirstKey:
      case Expect.Key:
        if (byte === CLOSE_OBJECT && this.expect === Expect.FirstKey) return this.to(Expect.End);
        return byte === QUOTE ? false : this.unexpected(byte, i, 'a member name in quotes');
      case Expect.Colon:
        return byte === COLON ? this.to(Expect.MemberValue) : this.unexpected(byte, i, `":" after "${this.key}"`);
      case Expect.MemberValue:
        if (this.key !== 'features' || byte !== OPEN_ARRAY) return false;
        this.hasFeatureArray = true;
        this.featureIndex = 0;
        return this.to(Expect.FirstFeature);
      case Expect.AfterMember:
        if (byte === COMMA) return this.to(Expect.Key);
        if (byte === CLOSE_OBJECT) return this.to(Expect.End);
        return this.unexpected(byte, i, `"," or "}" after the value of "${this.key}"`);
      case Expect.FirstFeature:
        return byte === CLOSE_ARRAY && this.to(Expect.AfterMember);
      case Expect.Feature:
        return false;
      case Expect.AfterFeature:
        if (byte === COMMA) return this.to(Expect.Feature);
        if (byte === CLOSE_ARRAY) return this.to(Expect.AfterMember);
        return this.unexpected(byte, i, `"," or "]" after feature ${this.featureIndex - 1}`);
      case Expect.End:
        return this.unexpected(byte, i, 'nothing after the end of the top-level object');
    }
  }

  /** Expects `next` after this byte. */
  private to(next: Expect): true {
    this.expect = next;
    return true;
  }

  private beginValue(byte: number, i: number): void {
    let purpose: Purpose;
    switch (this.expect) {
      case Expect.Top:
        purpose = Purpose.Top;
        break;
      case Expect.FirstKey:
      case Expect.Key:
        purpose = Purpose.Key;
        break;
      case Expect.MemberValue:
        purpose = this.key === 'features' ? Purpose.Features : MEMBERS.has(this.key) ? Purpose.Member : Purpose.Skip;
        break;
      case Expect.FirstFeature:
      case Expect.Feature:
        purpose = Purpose.Feature;
        break;
      default:
        throw new Error('a value where none can start');
    }
    if (byte === QUOTE) this.kind = Kind.String;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.kind = Kind.Container;
    else if (isScalarStart(byte)) this.kind = Kind.Scalar;
    else this.unexpected(byte, i, purpose === Purpose.Feature ? `feature ${this.featureIndex}` : 'a value');
    this.purpose = purpose;
    this.reading = true;
    this.valueStart = this.offset + i;
    this.depth = this.kind === Kind.Container ? 1 : 0;
    this.inString = this.kind === Kind.String;
    this.escaped = false;
    // A container's or a string's insides are only counted when the value is skipped.
    this.keep = purpose !== Purpose.Skip && !(this.kind === Kind.Container && (purpose === Purpose.Top || purpose === Purpose.Features));
    this.pieces.length = 0;
  }

  /**
   * Reads on in the value from `i` (just after its first byte in the first chunk); returns the
   * index just after its last byte, or -1 when it goes on in the next chunk.
   */
  private scanValue(chunk: Buffer, i: number): number {
    if (this.kind === Kind.Scalar) {
      for (; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (isSpace(byte) || byte === COMMA || byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) return i;
      }
      return -1;
    }
    let { depth, inString, escaped } = this;
    for (; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          inString = false;
          if (depth === 0) {
            this.inString = false;
            return i + 1;
          }
        }
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
      else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) {
        this.depth = 0;
        return i + 1;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return -1;
  }

  /** The value ends at `end` in `chunk` (it began at `from` there, or in an earlier chunk if `from` is -1 or `pieces` holds some). */
  private finishValue(chunk: Buffer, from: number, end: number): void {
    this.reading = false;
    let value: unknown;
    if (this.keep) {
      const text =
        this.pieces.length === 0 ? chunk.toString('utf8', Math.max(from, 0), end) : Buffer.concat([...this.pieces, chunk.subarray(0, end)]).toString('utf8');
      this.pieces.length = 0;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new NotJsonError(`${(error as Error).message}, in ${this.describePurpose()} (bytes ${this.valueStart}–${this.offset + end})`);
      }
    }
    switch (this.purpose) {
      case Purpose.Top:
        this.topWas = this.keep ? describeValue(value) : 'an array';
        this.expect = Expect.End;
        return;
      case Purpose.Key:
        this.key = value as string;
        this.expect = Expect.Colon;
        return;
      case Purpose.Member:
        this.members[this.key] = value;
        this.expect = Expect.AfterMember;
        return;
      case Purpose.Features:
        this.featuresWere = this.keep ? describeValue(value) : 'an object';
        this.expect = Expect.AfterMember;
        return;
      case Purpose.Skip:
        this.expect = Expect.AfterMember;
        return;
      case Purpose.Feature:
        this.featureCount++;
        this.expect = Expect.AfterFeature;
        this.onFeature(value, this.featureIndex++, this.members);
        return;
    }
  }

  private describePurpose(): string {
    switch (this.purpose) {
      case Purpose.Feature:
        return `feature ${this.featureIndex}`;
      case Purpose.Key:
        return 'a member name';
      case Purpose.Top:
        return 'the top-level value';
      default:
        return `the value of "${this.key}"`;
    }
  }

  /** Where reading stopped, for an early end. */
  private where(): string {
    if (this.reading) return `in ${this.describePurpose()}`;
    switch (this.expect) {
      case Expect.Top:
        return 'with nothing in it';
      case Expect.FirstFeature:
      case Expect.Feature:
      case Expect.AfterFeature:
        return this.featureIndex === 0 ? 'in the "features" array' : `in the "features" array after feature ${this.featureIndex - 1}`;
      default:
        return 'before the top-level object is closed';
    }
  }

  private unexpected(byte: number, i: number, wanted: string): never {
    const shown = byte >= 0x20 && byte < 0x7f ? JSON.stringify(String.fromCharCode(byte)) : `byte 0x${byte.toString(16).padStart(2, '0')}`;
    throw new NotJsonError(`expected ${wanted} at byte ${this.offset + i}, found ${shown}`);
  }
}
