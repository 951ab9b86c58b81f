import { describe, expect, test } from 'vitest';
import { groupByPart, partOf } from './breakdown.ts';

describe('partOf', () => {
  test('names the npm package of a dependency, scoped or not, however deep', () => {
    expect(partOf('../node_modules/react-dom/cjs/react-dom-client.production.js')).toBe('react-dom');
    expect(partOf('../node_modules/@xstate/react/dist/xstate-react.esm.js')).toBe('@xstate/react');
    expect(partOf('../node_modules/a/node_modules/zod/v4/core/core.js')).toBe('zod');
  });
  test('names the folder of our own code, and the source map\'s own keys as they are', () => {
    expect(partOf('../../src/pins/icon.ts')).toBe('src/pins');
    expect(partOf('../../src/map/vector/pins.ts')).toBe('src/map');
    expect(partOf('../../src/main.tsx')).toBe('src');
    expect(partOf('[unmapped]')).toBe('[unmapped]');
  });
});

describe('groupByPart', () => {
  test('sums by part, largest first, and shares the gzip size by minified bytes', () => {
    const parts = groupByPart(
      { '../node_modules/zod/a.js': { size: 300 }, '../node_modules/zod/b.js': { size: 100 }, '../../src/ui/App.tsx': { size: 600 } },
      500,
    );
    expect(parts).toEqual([
      { part: 'src/ui', bytes: 600, gzipBytes: 300 },
      { part: 'zod', bytes: 400, gzipBytes: 200 },
    ]);
  });
});
