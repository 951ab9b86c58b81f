import { MESSAGES } from '../config/errors.ts';

/**
 * Each engine's style sheet, known by one rule it is sure to contain. A page that forgot the
 * sheet gets one console warning per library, not an error: the map may still be usable.
 */
const SHEETS = {
  maplibre: { file: 'maplibre-gl.css', className: 'maplibregl-map', property: 'position', expected: 'relative' },
  leaflet: { file: 'leaflet.css', className: 'leaflet-pane', property: 'position', expected: 'absolute' },
} as const;

export type StyleSheetLibrary = keyof typeof SHEETS;

const warned = new Set<StyleSheetLibrary>();

/** Whether the library's style sheet applies on this page. */
export function hasStyleSheet(library: StyleSheetLibrary): boolean {
  const sheet = SHEETS[library];
  const probe = document.createElement('div');
  probe.className = sheet.className;
  probe.style.visibility = 'hidden';
  document.body.appendChild(probe);
  const value = getComputedStyle(probe).getPropertyValue(sheet.property);
  probe.remove();
  return value === sheet.expected;
}

/** Warns once if the library's style sheet is missing. */
export function warnIfStyleSheetMissing(library: StyleSheetLibrary): void {
  if (warned.has(library) || hasStyleSheet(library)) return;
  warned.add(library);
  console.warn(MESSAGES.stylesheetMissing(library === 'maplibre' ? 'MapLibre GL JS' : 'Leaflet', SHEETS[library].file));
}
