import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readFeatureCollection } from './read-geojson.ts';

/** Reads `text` cut into chunks of `size` bytes (the whole at once when omitted). */
async function read(text: string | Buffer, size?: number) {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size ?? bytes.length) chunks.push(bytes.subarray(at, at + (size ?? bytes.length)));
  const features: [index: number, feature: unknown, membersThen: string[]][] = [];
  const result = await readFeatureCollection(Readable.from(chunks), (feature, index, members) => features.push([index, feature, Object.keys(members)]));
  return { ...result, features };
}

/** Text with every awkward thing a feature or member can hold: brackets and quotes in strings, escapes, non-ASCII, nesting, numbers. */
const AWKWARD = JSON.stringify(
  {
    type: 'FeatureCollection',
    name: { nested: [{ '}': ']' }, '"{['] },
    pinStyles: { 'a "b"': { markerColor: '#fff' } },
    features: [
      { type: 'Feature', id: 'x}]"', geometry: { type: 'Point', coordinates: [-0.5, 1e-7] }, properties: { title: 'Zürich \\ "quoted" {[', n: [[[]]], e: '' } },
      null,
      7,
      'a string',
      [],
      { type: 'Feature', id: '日本語 🌍', geometry: { type: 'Point', coordinates: [179.99999, -85.05] }, properties: { title: '\u0000\u001f\t\n', b: true, f: false, z: null } },
    ],
    attribution: '© someone',
  },
  null,
  1,
);

describe('readFeatureCollection', () => {
  it('hands over each feature as JSON.parse reads it, in order, and keeps type, attribution and pinStyles', async () => {
    const whole = JSON.parse(AWKWARD) as { features: unknown[]; type: string; attribution: string; pinStyles: unknown };
    const got = await read(AWKWARD);
    expect(got.features.map(([index, feature]) => [index, feature])).toEqual(whole.features.map((feature, index) => [index, feature]));
    expect(got.members).toEqual({ type: whole.type, pinStyles: whole.pinStyles, attribution: whole.attribution });
    expect(got).toMatchObject({ featureCount: 6, hasFeatureArray: true, featuresWere: undefined, topWas: undefined });
    // Members that come before the features are there when they are read.
    expect(got.features[0]![2]).toEqual(['type', 'pinStyles']);
  });

  it('reads the same whatever the chunks: every size from 1 byte up, in compact and indented JSON', async () => {
    const whole = JSON.parse(AWKWARD) as { features: unknown[] };
    for (const text of [AWKWARD, JSON.stringify(whole)]) {
      const once = await read(text);
      for (const size of [1, 2, 3, 5, 7, 13, 64, 333]) {
        const chunked = await read(text, size);
        expect(chunked.features, `chunks of ${size}`).toEqual(once.features);
        expect(chunked.members).toEqual(once.members);
      }
    }
  });

  it('reads a file that starts with a byte order mark', async () => {
    const got = await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"type":"FeatureCollection","features":[1]}')]), 2);
    expect(got.features.map(([, feature]) => feature)).toEqual([1]);
  });

  it('says what the features or the whole file were when not what a FeatureCollection has', async () => {
    expect(await read('{"type":"FeatureCollection","features":{"a":[1]}}')).toMatchObject({ hasFeatureArray: false, featuresWere: 'an object', featureCount: 0 });
    expect(await read('{"features":"many"}')).toMatchObject({ hasFeatureArray: false, featuresWere: 'the string "many"' });
    expect(await read('{"features":12 }')).toMatchObject({ featuresWere: 'the number 12' });
    expect(await read('{"type":"FeatureCollection"}')).toMatchObject({ hasFeatureArray: false, featuresWere: undefined, members: { type: 'FeatureCollection' } });
    expect(await read('{}')).toMatchObject({ hasFeatureArray: false, members: {} });
    expect(await read('[{"type":"Feature"}]')).toMatchObject({ topWas: 'an array', featureCount: 0 });
    expect(await read(' 42 ')).toMatchObject({ topWas: 'the number 42' });
    expect(await read('null', 1)).toMatchObject({ topWas: 'null' });
    expect(await read('{"features":[]}')).toMatchObject({ hasFeatureArray: true, featureCount: 0 });
  });

  it('rejects what is not JSON, naming the byte or the feature', async () => {
    const cases: [string, string][] = [
      ['', 'the file is not JSON: it ends early, with nothing in it'],
      ['{"type":"FeatureCollection","features":[{"a":1},', 'it ends early, in the "features" array after feature 0'],
      ['{"type":"FeatureCollection","features":[{"a":1},{"b":', 'it ends early, in feature 1'],
      ['{"type":"FeatureCollection","features":[]', 'it ends early, before the top-level object is closed'],
      ['{"type":"FeatureCollection","features":[{"a":1} {"b":2}]}', 'expected "," or "]" after feature 0 at byte 48, found "{"'],
      ['{"type":"FeatureCollection","features":[{"a":1},]}', 'expected feature 1 at byte 48, found "]"'],
      ['{"type":"FeatureCollection","features":[{"a":01}]}', 'in feature 0 (bytes 40–48)'],
      ['{"type":"FeatureCollection","features":[{"a":1}]} x', 'expected nothing after the end of the top-level object at byte 50, found "x"'],
      ['{"type" "FeatureCollection"}', 'expected ":" after "type" at byte 8, found "\\""'],
      ['{type:1}', 'expected a member name in quotes at byte 1, found "t"'],
      ['{"type":FeatureCollection}', 'expected a value at byte 8, found "F"'],
      ['{"type":"FeatureCollection" "features":[]}', 'expected "," or "}" after the value of "type" at byte 28'],
      ['{"attribution":tru}', 'in the value of "attribution"'],
    ];
    for (const [text, message] of cases) {
      for (const size of [undefined, 1]) await expect(read(text, size), `${text} in chunks of ${size ?? 'all'}`).rejects.toThrow(message);
    }
  });

  it('skips other members whatever they hold, without keeping them', async () => {
    const got = await read('{"big":{"a":["}",{"b":"\\"]"}]},"features":[{"id":1}],"n":-1.5e3,"t":true}', 4);
    expect(got.members).toEqual({});
    expect(got.features.map(([, feature]) => feature)).toEqual([{ id: 1 }]);
  });
});
