import { describe, expect, it } from 'vitest';
import { CLUSTER_MAX_ZOOM } from '../config/constants.ts';
import { PinGrouping } from '../pins/grouping/grouping.ts';
import { clumpedLngLats } from '../testing/pin-features.testing.ts';
import { Grouper } from './zoom-groups.ts';

describe("the tiler's order of each range's pins", () => {
  it("makes every bubble of every zoom a run that holds exactly the bubble's pins", () => {
    const lngLats = Float64Array.from(clumpedLngLats(12_000).flat());
    const grouper = new Grouper(lngLats);
    const grouping = new PinGrouping({ lngLats });
    let order: Uint32Array | undefined;
    const ranges: [number, number][] = [];
    let bubbles = 0;
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM; zoom++) {
      const groups = grouper.at(zoom);
      if (groups.leaves) {
        ranges.push(groups.leaves.zooms);
        order = groups.leaves.order;
        // Each pin once.
        expect(new Set(order).size).toBe(12_000);
      }
      const { count, id, points, first } = groups.bubbles;
      expect(first, `zoom ${zoom}`).toBeDefined();
      for (let k = 0; k < count; k++) {
        const run = order!.slice(first![k]!, first![k]! + points[k]!).sort();
        expect(run, `bubble ${id[k]} at zoom ${zoom}`).toEqual(grouping.leaves(id[k]!).pins);
      }
      bubbles += count;
    }
    // Several ranges of zooms (more than 10,000 pins), bubbles at each of their zooms.
    expect(ranges).toEqual([[0, 4], [5, 6], [7, 8], [9, 10], [11, 12], [13, 14], [15, 16], [17, 18]]);
    expect(bubbles).toBeGreaterThan(1000);
  });
});
