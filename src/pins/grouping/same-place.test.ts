import { describe, expect, it } from 'vitest';
import { CIRCLE_MAX, FAN_MIN_RADIUS_PX, FAN_SEPARATION_PX, SPOT_RADIUS_PX, fanPositions, pinsAtSpot, type PlacedPin } from './same-place.ts';

const placed = (id: string, x: number, y: number): PlacedPin => ({ id, point: [x, y] });
const distance = (a: readonly [number, number], b: readonly [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

describe('pinsAtSpot', () => {
  it('gives the pin and those within a pin width of it, nearest first', () => {
    const pins = [placed('far', 300, 300), placed('b', 110, 100), placed('a', 100, 100), placed('c', 100, 100), placed('edge', 100 + SPOT_RADIUS_PX, 100), placed('out', 100 + SPOT_RADIUS_PX + 1, 100)];
    expect(pinsAtSpot(pins, 'a').map((pin) => pin.id)).toEqual(['a', 'c', 'b', 'edge']);
  });

  it('gives a lone pin alone, and nothing for a pin not drawn', () => {
    const pins = [placed('a', 0, 0), placed('b', 100, 0)];
    expect(pinsAtSpot(pins, 'a').map((pin) => pin.id)).toEqual(['a']);
    expect(pinsAtSpot(pins, 'zzz')).toEqual([]);
  });

  it('counts a pin drawn twice (two copies of the world) once', () => {
    const pins = [placed('a', 0, 0), placed('b', 1, 0), placed('b', 2, 0)];
    expect(pinsAtSpot(pins, 'a').map((pin) => pin.id)).toEqual(['a', 'b']);
  });
});

describe('fanPositions', () => {
  it('puts a few pins evenly on a circle, the first straight up', () => {
    const positions = fanPositions(3);
    expect(positions[0]).toEqual([0, -FAN_MIN_RADIUS_PX]);
    for (const point of positions) expect(distance(point, [0, 0])).toBeCloseTo(FAN_MIN_RADIUS_PX, 1);
    expect(distance(positions[0]!, positions[1]!)).toBeCloseTo(distance(positions[1]!, positions[2]!), 1);
    // Clockwise on the screen (y down): the second is to the right.
    expect(positions[1]![0]).toBeGreaterThan(0);
  });

  it('grows the circle so neighbours keep their room', () => {
    const positions = fanPositions(CIRCLE_MAX);
    const radius = distance(positions[0]!, [0, 0]);
    expect(radius).toBeGreaterThanOrEqual(FAN_MIN_RADIUS_PX);
    expect(distance(positions[0]!, positions[1]!)).toBeGreaterThanOrEqual(FAN_SEPARATION_PX * 0.95);
  });

  it('puts many pins on a spiral going out, no two closer than the room between them', () => {
    const positions = fanPositions(40);
    expect(positions).toHaveLength(40);
    const radii = positions.map((point) => distance(point, [0, 0]));
    for (let i = 1; i < radii.length; i++) expect(radii[i]!).toBeGreaterThan(radii[i - 1]!);
    expect(radii[0]).toBeCloseTo(FAN_MIN_RADIUS_PX, 0);
    for (let i = 0; i < positions.length; i++) {
      for (let j = i + 1; j < positions.length; j++) expect(distance(positions[i]!, positions[j]!)).toBeGreaterThan(FAN_SEPARATION_PX * 0.9);
    }
  });

  it('gives nothing for no pins, and says what is wrong with a bad count', () => {
    expect(fanPositions(0)).toEqual([]);
    expect(() => fanPositions(-1)).toThrow(/whole number of pins \(got -1\)/);
    expect(() => fanPositions(2.5)).toThrow(/got 2.5/);
  });
});
