import { describe, expect, it } from 'vitest';
import { collisionBoxes } from './label-collision.ts';
import { parsePins } from '../pins/data.ts';
import { SharedStyles } from '../pins/icon.ts';
import type { PinGroup } from '../pins/grouping/clusters.ts';

describe('collisionBoxes: where labels must keep out, for the DOM pins and bubbles shown', () => {
  const set = parsePins({
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', id: 'a', geometry: { type: 'Point', coordinates: [2, 48] }, properties: { title: 'A' } },
      { type: 'Feature', id: 'b', geometry: { type: 'Point', coordinates: [4, 50] }, properties: { title: 'B', pin: { scale: 1.5 } } },
    ],
  });
  const pins = new Map(set.pins.map((pin) => [pin.id, pin]));
  const shared = new SharedStyles();
  const styles = (pin: (typeof set.pins)[number]) => shared.of(pin);

  it("gives each pin a box of its own size (32 × 52 times its scale) standing on its tip, and each bubble its circle with the ring", () => {
    const groups: PinGroup[] = [
      { kind: 'pin', key: 'a', id: 'a' },
      { kind: 'pin', key: 'b', id: 'b' },
      { kind: 'cluster', key: 'c', clusterId: 1, count: 12, lngLat: [10, 45] },
    ];
    expect(collisionBoxes(groups, pins, styles)).toEqual([
      { lngLat: [2, 48], width: 32, height: 52, anchor: 'bottom' },
      { lngLat: [4, 50], width: 48, height: 78, anchor: 'bottom' },
      { lngLat: [10, 45], width: 38, height: 38, anchor: 'center' },
    ]);
  });

  it('skips a group whose pin is not in the set', () => {
    expect(collisionBoxes([{ kind: 'pin', key: 'x', id: 'x' }], pins, styles)).toEqual([]);
  });
});
