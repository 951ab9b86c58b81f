import { describe, expect, it } from 'vitest';
import { CLUSTER_MAX_ZOOM } from '../config/constants.ts';
import { PIN_ARCHIVE, revealZoomOf } from './archive-format.ts';

describe('revealZoomOf', () => {
  it('is the first zoom from the one asked at which the pin stands alone', () => {
    const mask = (1 << 9) | (1 << 12);
    expect(revealZoomOf(mask, 3)).toBe(9);
    expect(revealZoomOf(mask, 10.5)).toBe(12);
  });

  it('is the archive’s last zoom for a pin in a bubble at every grouped zoom, and no lower than the zoom asked', () => {
    expect(PIN_ARCHIVE.maxZoom).toBe(CLUSTER_MAX_ZOOM + 1);
    expect(revealZoomOf(1 << PIN_ARCHIVE.maxZoom, 0)).toBe(PIN_ARCHIVE.maxZoom);
    expect(revealZoomOf(1 << 17, 16)).toBe(17); // grouped up to zoom 18 now
    expect(revealZoomOf(0, 21)).toBe(21);
  });

  it('reads an archive made when tiles ended at zoom 15 by its own last zoom', () => {
    // Such an archive sets bit 15 for every pin; a pin in a bubble up to 14 stands alone at 15.
    expect(revealZoomOf(1 << 15, 4, 15)).toBe(15);
    expect(revealZoomOf((1 << 15) | (1 << 13), 4, 15)).toBe(13);
  });

  it('reads an archive that ends at the first zoom without bubbles by its own last zoom: its pin index knows no zoom above it', () => {
    const last = PIN_ARCHIVE.lowestLastZoom;
    // Alone from 12 up to the archive's last zoom; every pin stands alone there.
    const mask = (2 ** (last + 1) - 1) & ~((1 << 12) - 1);
    expect(revealZoomOf(mask, 4, last)).toBe(12);
    expect(revealZoomOf(1 << last, 4, last)).toBe(last);
    expect(revealZoomOf(1 << last, last + 1.5, last)).toBe(last + 1);
  });
});
