/**
 * Test data for the pin parser's tests: a valid Point feature to start from. Only tests import
 * this file.
 */

/** A valid Point feature; `overrides` replace top-level members, `properties` are merged in. */
export function feature(id: unknown, properties: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'Feature',
    ...(id === undefined ? {} : { id }),
    geometry: { type: 'Point', coordinates: [2.35, 48.85] },
    properties: { title: `Pin ${String(id)}`, ...properties },
    ...overrides,
  };
}
