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

/**
 * `count` pins' [longitude, latitude] in clumps of every size around Europe, from a seeded generator
 * (the same each time): bubbles at every zoom, some pins on one spot.
 */
export function clumpedLngLats(count: number, seed = 7): [number, number][] {
  let state = seed;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const centres = Array.from({ length: 40 }, () => [-5 + random() * 30, 38 + random() * 20, 10 ** (-4 + random() * 4)] as const);
  return Array.from({ length: count }, (_, i) => {
    const [lng, lat, spread] = centres[i % centres.length]!;
    // Every twentieth pin on its clump's centre: pins at one spot, which split at no zoom.
    if (i % 20 === 0) return [lng, lat];
    return [lng + (random() - 0.5) * spread, lat + (random() - 0.5) * spread];
  });
}
