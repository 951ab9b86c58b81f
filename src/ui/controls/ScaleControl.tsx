import { useMemo, useState } from 'react';
import type { MapAdapter } from '../../map/adapter.ts';
import type { Locale, LocaleKey } from '../../config/locale.ts';
import { nextScaleUnit, SCALE_MAX_WIDTH, SCALE_UNITS, scaleBar, type ScaleBar, type ScaleUnit, type UnitSymbol } from '../../map/scale.ts';
import { useCamera } from '../hooks/use-camera.ts';

const UNIT_KEYS: Record<UnitSymbol, LocaleKey> = {
  m: 'ScaleControl.Meters',
  km: 'ScaleControl.Kilometers',
  ft: 'ScaleControl.Feet',
  mi: 'ScaleControl.Miles',
  nm: 'ScaleControl.NauticalMiles',
};

/** Where the user's choice of units is remembered on this browser. */
const STORAGE_KEY = 'pinmap.scaleUnits';

function rememberedUnits(fallback: ScaleUnit): ScaleUnit {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    return (SCALE_UNITS as readonly string[]).includes(stored ?? '') ? (stored as ScaleUnit) : fallback;
  } catch {
    return fallback; // storage blocked: the site's units
  }
}

function remember(units: ScaleUnit): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, units);
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}

/**
 * The scale: a bar at most 100 px wide with a rounded distance, measured like MapLibre's scale
 * across the middle of the map. A click (or Enter / Space) cycles metric → imperial → nautical;
 * the choice is remembered on this browser, over the site's `units`.
 */
export function ScaleControl({ adapter, units, locale }: { adapter: MapAdapter; units: ScaleUnit; locale: Locale }) {
  const [unit, setUnit] = useState(() => rememberedUnits(units));
  const camera = useCamera(adapter);
  // Measured afresh whenever the camera (or the map's size, which moves the camera) changes.
  const bar = useMemo((): ScaleBar | undefined => {
    void camera;
    const metres = adapter.measure(SCALE_MAX_WIDTH);
    return metres === undefined || !(metres > 0) ? undefined : scaleBar(metres, unit);
  }, [adapter, camera, unit]);

  const cycle = () => {
    const next = nextScaleUnit(unit);
    remember(next);
    setUnit(next);
  };

  const title = locale['ScaleControl.ChangeUnits'];
  return (
    <button type="button" className="pinmap-ctrl pinmap-scale" data-state={unit} title={title} style={{ width: bar ? `${bar.width}px` : undefined }} onClick={cycle}>
      {bar ? `${bar.value}\u00a0${locale[UNIT_KEYS[bar.unit]]}` : '\u00a0'}
    </button>
  );
}
