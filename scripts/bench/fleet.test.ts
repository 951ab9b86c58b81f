import { describe, expect, it } from 'vitest';
import { bubbleChurn, FLEET, fleetData, fleetTargets, renderFleet, viewBox, type FleetSide } from './fleet.ts';

describe('the fleet bench', () => {
  it('makes the same fleet from the same seed: its pins, and ticks that move only the vehicles', () => {
    const small = { ...FLEET, pins: 50, moving: 5, ticks: 3 };
    const a = fleetData(small);
    expect(fleetData(small)).toEqual(a);
    expect(fleetData({ ...small, seed: 2 }).pins).not.toEqual(a.pins);
    expect(a.pins).toHaveLength(50);
    expect(a.ticks.map((tick) => tick.map(([i]) => i))).toEqual([[0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]);
    // 5–20 m a second: at most 0.0002° (and a little more in longitude at 50°).
    for (const [i, lng, lat] of a.ticks[0]!) {
      const [lng0, lat0] = a.pins[i]!;
      expect(Math.hypot((lng - lng0) * Math.cos((lat0 * Math.PI) / 180), lat - lat0)).toBeGreaterThan(4 / 111_320);
      expect(Math.hypot((lng - lng0) * Math.cos((lat0 * Math.PI) / 180), lat - lat0)).toBeLessThan(21 / 111_320);
    }
  });

  it('counts a bubble with the same pins as re-created only when its key changed', () => {
    const before = [{ key: 'k1', id: '1', members: '1,2' }, { key: 'k2', id: '2', members: '3,4' }, { key: 'k3', id: '3', members: '5,6' }];
    const after = [{ key: 'k1', id: '1', members: '1,2' }, { key: 'k2b', id: '9', members: '3,4' }, { key: 'k3', id: '3', members: '5,6,7' }];
    expect(bubbleChurn(before, after)).toEqual({ unchanged: 2, recreated: 1, renumbered: 1 });
  });

  it("takes the view's box as MapLibre draws it (512 px tiles)", () => {
    const [w, s, e, n] = viewBox([0, 0], 1, { width: 1024, height: 1024 });
    expect([w, e]).toEqual([-180, 180]);
    expect(s).toBeCloseTo(-85.0511, 3);
    expect(n).toBeCloseTo(85.0511, 3);
  });

  it('judges the targets on Pinmap’s figures, and says a missed one', () => {
    const side = (scale: number): FleetSide => ({
      panStill: Array.from({ length: 100 }, () => 20),
      panMoving: Array.from({ length: 100 }, () => 20 * scale),
      taskMs: [3, 3, 5],
      scriptMs: [1],
      callMs: [0.5],
      latencyMs: [50, 60, Number.NaN],
      bubbles: { unchanged: 40, recreated: scale > 1 ? 3 : 0, renumbered: 0 },
      firstTick: 7,
    });
    const targets = fleetTargets({ pinmap: side(1.1), maplibre: side(2), loadAverage: [1, 1] });
    expect(targets.map((t) => [t.figure, t.met])).toEqual([
      ['1.10× (22.0 / 20.0 ms)', true],
      ['5.0 ms', false],
      ['60.0 ms', true],
      ['3 of 40', false],
    ]);
    const text = renderFleet({ pinmap: side(1), maplibre: side(2), loadAverage: [1, 2] });
    expect(text).toContain('| pan, moving / still | 1.00× | 2.00× |');
    expect(text).toContain('| updates with no such frame within 5 s | 1 | 1 |');
  });
});
