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

/**
 * A city's addresses around `[lng, lat]`, from a seeded generator (the same each time): streets of
 * houses 5 to 25 m apart, blocks of flats (up to 30 pins at one address), and pins scattered
 * within about a kilometre. Bubbles are left at every zoom the grouping has (the flats never
 * split), lone pins from about zoom 12.
 */
export function cityLngLats([lng, lat]: [number, number], seed = 5): [number, number][] {
  let state = seed;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const near = (spread: number): [number, number] => [lng + (random() - 0.5) * spread, lat + (random() - 0.5) * spread];
  const pins: [number, number][] = [];
  for (let street = 0; street < 12; street++) {
    let [x, y] = near(0.02);
    let angle = random() * Math.PI;
    const step = 0.00005 + random() * 0.0002;
    for (let house = 0, houses = 5 + Math.floor(random() * 30); house < houses; house++) {
      pins.push([x, y]);
      x += Math.cos(angle) * step;
      y += Math.sin(angle) * step;
      angle += (random() - 0.5) * 0.1;
    }
  }
  for (let block = 0; block < 8; block++) {
    const at = near(0.02);
    for (let flat = 0, flats = 2 + Math.floor(random() * 29); flat < flats; flat++) pins.push(at);
  }
  for (let k = 0; k < 60; k++) pins.push(near(0.03));
  return pins;
}
