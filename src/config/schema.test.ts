import { describe, expect, it } from 'vitest';
import { ConfigError, configKey, controlCorners, parseConfig, safeParseConfig, showsEmbeddedBasemap, type ConfigProblem } from './schema.ts';

function problems(input: unknown): ConfigProblem[] {
  const result = safeParseConfig(input);
  if (result.ok) throw new Error('expected the config to be rejected');
  return result.error.problems;
}

describe('config defaults', () => {
  it("fills in PRODUCT.md's constants when nothing is given", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      view: 'vector',
      minZoom: -2,
      maxZoom: 22,
      minPitch: 0,
      maxPitch: 60,
      bearingSnap: 7,
      clickTolerance: 3,
      fadeDuration: 300,
      styleTimeout: 8000,
      units: 'metric',
      trackUserLocation: true,
      fitToUserLocation: true,
      vectorLayer: { updateInterval: 32, padding: 0.1, interactive: false, pane: 'tilePane' },
    });
    expect(config.style).toBeUndefined();
    expect(parseConfig(undefined)).toEqual(config);
  });

  it('keeps zero values rather than replacing them with defaults', () => {
    const config = parseConfig({ zoom: 0, bearing: 0, pitch: 0, fadeDuration: 0, bearingSnap: 0, clickTolerance: 0, minPitch: 0, maxPitch: 0 });
    expect(config).toMatchObject({ zoom: 0, fadeDuration: 0, bearingSnap: 0, clickTolerance: 0, maxPitch: 0 });
  });

  it('places controls in their default corners unless config moves or hides them', () => {
    expect(controlCorners(parseConfig({}))).toEqual({
      fullscreen: 'top-left',
      navigation: 'top-right',
      geolocate: 'top-right',
      scale: 'bottom-left',
      attribution: 'bottom-right',
      view: false,
      list: false,
      legend: false,
      search: false,
    });
    expect(controlCorners(parseConfig({ controls: { scale: 'top-left', geolocate: false } }))).toMatchObject({ scale: 'top-left', geolocate: false });
  });

  it('shows the pin panels only when asked, true in their default corners', () => {
    expect(controlCorners(parseConfig({ controls: { list: true, legend: true, search: true } }))).toMatchObject({ list: 'top-left', legend: 'bottom-right', search: 'top-left' });
    expect(controlCorners(parseConfig({ controls: { list: 'bottom-left', legend: false } }))).toMatchObject({ list: 'bottom-left', legend: false, search: false });
    expect(problems({ controls: { scale: true } })).toEqual([{ option: 'controls.scale', message: 'must be one of "top-left", "top-right", "bottom-left", "bottom-right" or false' }]);
  });

  it('takes hidden categories and search fields', () => {
    expect(parseConfig({})).toMatchObject({ hiddenCategories: [], searchFields: [] });
    expect(parseConfig({ hiddenCategories: ['cafe'], searchFields: ['description', 'address'] })).toMatchObject({ hiddenCategories: ['cafe'], searchFields: ['description', 'address'] });
  });

  it('shows the view switch by default only when there are raster layers to switch to', () => {
    const raster = { rasterLayers: [{ url: 'r/{z}/{x}/{y}.png' }] };
    expect(controlCorners(parseConfig(raster)).view).toBe('top-left');
    expect(controlCorners(parseConfig({ ...raster, controls: { view: false } })).view).toBe(false);
    expect(controlCorners(parseConfig({ controls: { view: 'bottom-left' } })).view).toBe('bottom-left');
  });

  it('names the known option an unknown key is likely a slip for, and none when nothing is close', () => {
    expect(problems({ centre: [2.35, 48.85], colour: 'red' })).toEqual([
      { option: 'centre', message: 'is not a known option; did you mean center?' },
      { option: 'colour', message: 'is not a known option' },
    ]);
    expect(problems({ vectorLayer: { Padding: 0.2 } })).toEqual([{ option: 'vectorLayer.Padding', message: 'is not a known option; did you mean padding?' }]);
  });

  it('takes the CSV columns, the popup fields and fitPins', () => {
    expect(parseConfig({})).toMatchObject({ popupFields: [], fitPins: true });
    expect(parseConfig({}).csv).toBeUndefined();
    expect(parseConfig({ csv: { lat: 'Breite', lng: 'Länge' }, popupFields: ['address'], fitPins: false })).toMatchObject({ csv: { lat: 'Breite', lng: 'Länge' }, popupFields: ['address'], fitPins: false });
  });

  it("takes the list's detail field, none by default", () => {
    expect(parseConfig({}).listDetailField).toBeUndefined();
    expect(parseConfig({ listDetailField: 'address' }).listDetailField).toBe('address');
  });

  it('takes locale overrides under MapLibre\'s keys and names an unknown key', () => {
    expect(parseConfig({ locale: { 'NavigationControl.ZoomIn': 'Plus' } }).locale).toEqual({ 'NavigationControl.ZoomIn': 'Plus' });
    expect(problems({ locale: { 'Zoom in': 'Plus' } })).toEqual([{ option: 'locale.Zoom in', message: 'is not a known locale key (the README lists them)' }]);
  });

  it('accepts a style URL, a relative path or an inline style object', () => {
    expect(parseConfig({ style: 'https://tiles.example.com/style.json' }).style).toBe('https://tiles.example.com/style.json');
    expect(parseConfig({ style: 'basemap/style.json' }).style).toBe('basemap/style.json');
    const inline = { version: 8, sources: {}, layers: [] };
    expect(parseConfig({ style: inline }).style).toEqual(inline);
  });
});

describe("PRODUCT.md's map option checks (schema.corpus.test.ts holds the bad configs)", () => {
  it('accepts the edges of every range', () => {
    expect(safeParseConfig({ minZoom: -2, maxZoom: 22, minPitch: 0, maxPitch: 60 }).ok).toBe(true);
    expect(safeParseConfig({ minZoom: 4, maxZoom: 4, minPitch: 30, maxPitch: 30, pitch: 30 }).ok).toBe(true);
  });

  it('reports cross-option checks together with every other problem in one pass', () => {
    const found = problems({ minZoom: 5, maxZoom: 3, units: 'furlongs', zoomm: 1 }).map((p) => p.option);
    expect(found.sort()).toEqual(['minZoom', 'units', 'zoomm']);
  });
});

describe('ConfigError', () => {
  it('throws a ConfigError whose message lists each problem', () => {
    expect(() => parseConfig({ maxZoom: 30, colour: 'red' })).toThrow(ConfigError);
    expect(() => parseConfig({ maxZoom: 30, colour: 'red' })).toThrow(/maxZoom: must be at most 22.*colour: is not a known option/);
  });
});

describe('configKey', () => {
  it('is the same for the same content and differs with it', () => {
    expect(configKey({ zoom: 3, center: [2, 48] })).toBe(configKey({ zoom: 3, center: [2, 48] }));
    expect(configKey({ zoom: 3 })).not.toBe(configKey({ zoom: 4 }));
    expect(configKey(undefined)).toBe(configKey({}));
    expect(configKey(null)).not.toBe(configKey(undefined));
  });

  it('keys config whose JSON cannot be written by identity, without throwing, so its error can show', () => {
    const cyclic: Record<string, unknown> = { zoom: 3 };
    cyclic.self = cyclic;
    const withBigInt = { zoom: 3n };
    const unreadable = Object.defineProperty({}, 'zoom', { enumerable: true, get: () => { throw new Error('not ready'); } });
    for (const config of [cyclic, withBigInt, unreadable, 3n]) {
      expect(() => configKey(config)).not.toThrow();
      expect(configKey(config)).toBe(configKey(config));
      expect(safeParseConfig(config).ok).toBe(false);
    }
    expect(configKey({ zoom: 3n })).not.toBe(configKey(withBigInt));
    expect(configKey(Symbol('config'))).not.toBe(configKey(undefined));
  });
});

describe('theme', () => {
  it("defaults to 'auto' (follow the system) and takes 'light' and 'dark'", () => {
    expect(parseConfig({}).theme).toBe('auto');
    expect(parseConfig({ theme: 'light' }).theme).toBe('light');
    expect(parseConfig({ theme: 'dark' }).theme).toBe('dark');
  });

  it('names a bad theme or darkStyle', () => {
    expect(problems({ theme: 'night', darkStyle: 42 })).toEqual([
      { option: 'theme', message: 'must be "light", "dark" or "auto"' },
      { option: 'darkStyle', message: 'must be a style URL or a MapLibre style object' },
    ]);
    expect(problems({ darkStyle: 'javascript:alert(1)' })[0]?.option).toBe('darkStyle');
  });

  it('takes a darkStyle as a URL or a style object', () => {
    expect(parseConfig({ darkStyle: 'https://tiles.example.com/dark.json' }).darkStyle).toBe('https://tiles.example.com/dark.json');
    expect(parseConfig({ darkStyle: { version: 8, sources: {}, layers: [] } }).darkStyle).toEqual({ version: 8, sources: {}, layers: [] });
  });
});

describe('streets', () => {
  it('takes the URL of a street map archive, http(s) or relative to the page', () => {
    expect(parseConfig({ streets: 'area.pmtiles' }).streets).toBe('area.pmtiles');
    expect(parseConfig({ streets: 'https://maps.example.org/area.pmtiles' }).streets).toBe('https://maps.example.org/area.pmtiles');
    expect(parseConfig({}).streets).toBeUndefined();
  });

  it('names a streets that is no URL', () => {
    expect(problems({ streets: '' })).toEqual([{ option: 'streets', message: 'must be the URL of a street map archive (.pmtiles), not empty' }]);
    expect(problems({ streets: 'javascript:alert(1)' })).toEqual([{ option: 'streets', message: 'must be the URL of a street map archive (.pmtiles): an http(s) URL or a path relative to the page' }]);
    expect(problems({ streets: ['area.pmtiles'] })).toEqual([{ option: 'streets', message: 'must be the URL of a street map archive (.pmtiles)' }]);
  });

  it('is a basemap with streets: the map is not on the embedded basemap (no note that it has none)', () => {
    expect(showsEmbeddedBasemap(parseConfig({}))).toBe(true);
    expect(showsEmbeddedBasemap(parseConfig({ streets: 'area.pmtiles' }))).toBe(false);
    expect(showsEmbeddedBasemap(parseConfig({ style: 'https://tiles.example.com/style.json' }))).toBe(false);
  });

  it('is the basemap: given with style or darkStyle, it is an error naming streets and the other', () => {
    expect(problems({ streets: 'area.pmtiles', style: 'https://tiles.example.com/style.json' })).toEqual([
      { option: 'streets', message: 'cannot be given with style: the street map is the basemap (in the Protomaps light and dark styles); give one of them' },
    ]);
    expect(problems({ streets: 'area.pmtiles', darkStyle: 'https://tiles.example.com/dark.json' })).toEqual([
      { option: 'streets', message: 'cannot be given with darkStyle: the street map is the basemap (in the Protomaps light and dark styles); give one of them' },
    ]);
  });
});

describe('pins as a pre-tiled archive', () => {
  it('accepts pmtiles:// with an http(s) URL or a path, and refuses pmtiles:// with any other scheme', () => {
    expect(parseConfig({ pins: 'pmtiles://pins/cities.pmtiles' }).pins).toBe('pmtiles://pins/cities.pmtiles');
    expect(parseConfig({ pins: 'pmtiles://https://cdn.example.com/pins.pmtiles' }).pins).toBe('pmtiles://https://cdn.example.com/pins.pmtiles');
    const result = safeParseConfig({ pins: 'pmtiles://javascript:alert(1)' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.problems).toEqual([{ option: 'pins', message: 'must be an http(s) URL or a path relative to the page' }]);
  });
});
