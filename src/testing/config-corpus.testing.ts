/**
 * The corpus of bad configs, for the config tests in Node and in the browser (only tests import
 * this file). Each entry is `[input, the option(s) it must be refused for, a fragment of the
 * message]`: the config must be refused with a problem naming each listed option (and, when
 * given, saying the fragment), and every problem must say what is wrong in words.
 */
export type BadConfig = readonly [input: unknown, options: string | readonly string[], message?: string];

/** A valid raster layer to put one bad field in. */
const raster = (fields: Record<string, unknown>) => ({ rasterLayers: [{ url: 'tiles/{z}/{x}/{y}.png', ...fields }] });
/** A `cafe` pin style with one bad field. */
const cafe = (fields: Record<string, unknown>) => ({ pinStyles: { cafe: fields } });
/** An object with a getter that throws, as only code (never JSON) can hand over. */
const throwingGetter = Object.defineProperty({}, 'zoom', {
  enumerable: true,
  get() {
    throw new Error('zoom is not ready');
  },
});
/** A proxy that refuses to list its keys. */
const throwingProxy = new Proxy(
  {},
  {
    ownKeys() {
      throw new Error('no keys for you');
    },
  },
);

const MUST_BE_A_URL = 'must be an http(s) URL or a path relative to the page';
const TILE_TEMPLATE = 'must be a tile URL template with {z}, {x} and {y}';
const CORNER = 'must be one of "top-left", "top-right", "bottom-left", "bottom-right" or false';
const UNITS = 'must be "metric", "imperial" or "nautical"';
const COLOUR = 'must be a CSS colour';

export const BAD_CONFIGS: Record<string, readonly BadConfig[]> = {
  "PRODUCT.md's map option checks": [
    [{ minZoom: 5, maxZoom: 3 }, 'minZoom', 'must not be greater than maxZoom (minZoom 5 > maxZoom 3)'],
    [{ minZoom: 22, maxZoom: 21.5 }, 'minZoom', 'must not be greater than maxZoom (minZoom 22 > maxZoom 21.5)'],
    [{ minZoom: 23 }, ['minZoom'], 'minZoom 23 > maxZoom 22'],
    [{ maxZoom: -3 }, ['minZoom'], 'minZoom -2 > maxZoom -3'],
    [{ minZoom: -3 }, 'minZoom', 'must be at least -2'],
    [{ minZoom: -2.01 }, 'minZoom', 'must be at least -2'],
    [{ maxZoom: 23 }, 'maxZoom', 'must be at most 22'],
    [{ maxZoom: 22.5 }, 'maxZoom', 'must be at most 22'],
    [{ minPitch: -1 }, 'minPitch', 'must be at least 0'],
    [{ minPitch: -0.1 }, 'minPitch', 'must be at least 0'],
    [{ minPitch: 40, maxPitch: 30 }, 'minPitch', 'must not be greater than maxPitch (minPitch 40 > maxPitch 30)'],
    [{ minPitch: 61 }, 'minPitch', 'minPitch 61 > maxPitch 60'],
    [{ maxPitch: 61 }, 'maxPitch', 'must be at most 60'],
    [{ maxPitch: 60.5 }, 'maxPitch', 'must be at most 60'],
    [{ maxPitch: -5 }, 'minPitch', 'minPitch 0 > maxPitch -5'],
    [{ maxPitch: -5 }, 'pitch', 'must be between minPitch 0 and maxPitch -5 (got 0)'],
    [{ pitch: 61 }, 'pitch', 'must be between minPitch 0 and maxPitch 60 (got 61)'],
    [{ pitch: 10, minPitch: 20, maxPitch: 30 }, 'pitch', 'must be between minPitch 20 and maxPitch 30 (got 10)'],
    [{ minZoom: -3, maxZoom: 23, minPitch: -1, maxPitch: 61 }, ['minZoom', 'maxZoom', 'minPitch', 'maxPitch']],
    [{ minZoom: 5, maxZoom: 3, minPitch: 40, maxPitch: 30, pitch: 35 }, ['minZoom', 'minPitch']],
  ],

  'not an object at all': [
    [null, 'config', 'must be an object'],
    [42, 'config', 'must be an object'],
    ['{"zoom": 3}', 'config', 'must be an object'],
    ['', 'config', 'must be an object'],
    [true, 'config', 'must be an object'],
    [[], 'config', 'must be an object'],
    [[{ zoom: 3 }], 'config', 'must be an object'],
    [() => ({ zoom: 3 }), 'config', 'must be an object'],
  ],

  'a wrong type for each top-level option': [
    [{ style: 42 }, 'style', 'must be a style URL or a MapLibre style object'],
    [{ style: ['https://tiles.example.com/style.json'] }, 'style'],
    [{ accessToken: 12345 }, 'accessToken', 'must be a string'],
    [{ providerOrigin: true }, 'providerOrigin', 'must be an origin'],
    [{ accessTokenHeader: 1 }, 'accessTokenHeader', 'must be a header name'],
    [{ view: 1 }, 'view', 'must be "vector" or "hybrid"'],
    [{ center: 'Paris' }, 'center', 'must be [longitude, latitude]'],
    [{ center: { lng: 2, lat: 48 } }, 'center', 'must be [longitude, latitude]'],
    [{ center: ['2.35', '48.85'] }, ['center[0]', 'center[1]'], 'must be a finite number'],
    [{ zoom: '3' }, 'zoom', 'must be a finite number (zoom)'],
    [{ bearing: '90deg' }, 'bearing', 'must be a finite number (degrees)'],
    [{ pitch: [30] }, 'pitch', 'must be a finite number (degrees)'],
    [{ minZoom: null }, 'minZoom', 'must be a finite number (zoom)'],
    [{ maxZoom: '22' }, 'maxZoom', 'must be a finite number (zoom)'],
    [{ minPitch: false }, 'minPitch', 'must be a finite number (degrees)'],
    [{ maxPitch: {} }, 'maxPitch', 'must be a finite number (degrees)'],
    [{ bearingSnap: '7' }, 'bearingSnap', 'must be a finite number'],
    [{ clickTolerance: true }, 'clickTolerance', 'must be a finite number'],
    [{ fadeDuration: '300ms' }, 'fadeDuration', 'must be a finite number'],
    [{ styleTimeout: '8s' }, 'styleTimeout', 'must be a finite number'],
    [{ pinsTimeout: true }, 'pinsTimeout'],
    [{ maxPinBytes: '1 MB' }, 'maxPinBytes', 'must be a whole number of bytes'],
    [{ addressPins: 1 }, 'addressPins'],
    [{ addressConfig: 1 }, 'addressConfig'],
    [{ pixelRatio: '2' }, 'pixelRatio', 'must be a finite number'],
    [{ preserveDrawingBuffer: 'true' }, 'preserveDrawingBuffer', 'must be true or false'],
    [{ hash: 1 }, 'hash', 'must be true or false'],
    [{ pins: 42 }, 'pins', 'must be a GeoJSON URL or a GeoJSON FeatureCollection'],
    [{ pins: [{ type: 'Feature' }] }, 'pins', 'must be a GeoJSON URL or a GeoJSON FeatureCollection'],
    [{ pinStyles: 'red' }, 'pinStyles', 'must be an object of category → pin options'],
    [{ pinStyles: [{ markerColor: 'red' }] }, 'pinStyles', 'must be an object of category → pin options'],
    [{ domPinLimit: '500' }, 'domPinLimit', 'must be a whole number of pins'],
    [{ openPin: 7 }, 'openPin', 'must be a pin id'],
    [{ hiddenCategories: 'cafe' }, 'hiddenCategories', 'must be an array of category names'],
    [{ searchFields: 'description' }, 'searchFields', 'must be an array of pin property names'],
    [{ popupFields: 'address' }, 'popupFields', 'must be an array of pin property names'],
    [{ listDetailField: ['address'] }, 'listDetailField', 'must be the name of a pin property'],
    [{ listDetailField: '' }, 'listDetailField', 'must be the name of a pin property, not empty'],
    [{ csv: 'lat;lng' }, 'csv', 'must be an object of pin field → CSV column name'],
    [{ fitPins: 'no' }, 'fitPins', 'must be true or false'],
    [{ pinTransition: '300ms' }, 'pinTransition', 'must be a finite number (ms)'],
    [{ controls: 'all' }, 'controls', 'must be an object of control → corner or false'],
    [{ controls: ['scale'] }, 'controls', 'must be an object of control → corner or false'],
    [{ units: 1 }, 'units', UNITS],
    [{ locale: 'fr' }, 'locale', 'must be an object of string key → text'],
    [{ rasterLayers: { url: 'tiles/{z}/{x}/{y}.png' } }, 'rasterLayers', 'must be an array of raster layers'],
    [{ rasterLayers: 'tiles/{z}/{x}/{y}.png' }, 'rasterLayers', 'must be an array of raster layers'],
    [{ vectorLayer: true }, 'vectorLayer', 'must be an object (got boolean)'],
    [{ vectorLayer: [] }, 'vectorLayer', 'must be an object (got array)'],
    [{ trackUserLocation: 'yes' }, 'trackUserLocation', 'must be true or false'],
    [{ fitToUserLocation: 1 }, 'fitToUserLocation', 'must be true or false'],
    [{ theme: true }, 'theme', 'must be "light", "dark" or "auto"'],
    [{ darkStyle: 7 }, 'darkStyle', 'must be a style URL or a MapLibre style object'],
    [{ streets: 7 }, 'streets', 'must be the URL of a street map archive (.pmtiles)'],
  ],

  'a wrong type in a raster layer': [
    [{ rasterLayers: [null] }, 'rasterLayers[0]', 'must be an object (got null)'],
    [{ rasterLayers: ['tiles/{z}/{x}/{y}.png'] }, 'rasterLayers[0]', 'must be an object (got string)'],
    [{ rasterLayers: [{ url: 'a/{z}/{x}/{y}.png' }, 7] }, 'rasterLayers[1]'],
    [raster({ url: 42 }), 'rasterLayers[0].url', TILE_TEMPLATE],
    [raster({ attribution: { html: '© Someone' } }), 'rasterLayers[0].attribution', 'must be a string'],
    [raster({ opacity: '0.5' }), 'rasterLayers[0].opacity', 'must be a finite number (0..1)'],
    [raster({ minZoom: '3' }), 'rasterLayers[0].minZoom', 'must be a finite number (zoom)'],
    [raster({ maxZoom: [] }), 'rasterLayers[0].maxZoom', 'must be a finite number (zoom)'],
    [raster({ placement: 'top' }), 'rasterLayers[0].placement', 'must be "above" or "below" (the vector layer)'],
    [raster({ maxTileZoom: '18' }), 'rasterLayers[0].maxTileZoom', 'must be a whole tile zoom level'],
  ],

  'a wrong type in the vector layer': [
    [{ vectorLayer: { accessToken: 1 } }, 'vectorLayer.accessToken', 'must be a string'],
    [{ vectorLayer: { updateInterval: '32ms' } }, 'vectorLayer.updateInterval', 'must be a finite number (ms)'],
    [{ vectorLayer: { padding: '10%' } }, 'vectorLayer.padding', 'must be a finite number'],
    [{ vectorLayer: { interactive: 'false' } }, 'vectorLayer.interactive', 'must be true or false'],
    [{ vectorLayer: { pane: 3 } }, 'vectorLayer.pane', 'must be a Leaflet pane name'],
    [{ vectorLayer: { className: ['a', 'b'] } }, 'vectorLayer.className', 'must be a string of CSS classes'],
  ],

  'a wrong type in a pin style': [
    [{ pinStyles: { cafe: 'red' } }, 'pinStyles.cafe', 'must be an object of pin options'],
    [{ pinStyles: { cafe: null } }, 'pinStyles.cafe', 'must be an object of pin options'],
    [cafe({ iconClasses: ['fa-solid', 'fa-mug-hot'] }), 'pinStyles.cafe.iconClasses', 'must be a string of CSS classes'],
    [cafe({ iconColor: 0xffffff }), 'pinStyles.cafe.iconColor', 'must be a CSS colour string'],
    [cafe({ iconSize: '16px' }), 'pinStyles.cafe.iconSize', 'must be a finite number (px)'],
    [cafe({ iconXOffset: '2' }), 'pinStyles.cafe.iconXOffset', 'must be a finite number (px)'],
    [cafe({ iconYOffset: null }), 'pinStyles.cafe.iconYOffset', 'must be a finite number (px)'],
    [cafe({ markerColor: [63, 177, 206] }), 'pinStyles.cafe.markerColor', 'must be a CSS colour string'],
    [cafe({ markerFillOpacity: '50%' }), 'pinStyles.cafe.markerFillOpacity', 'must be a finite number (0..1)'],
    [cafe({ markerStrokeColor: true }), 'pinStyles.cafe.markerStrokeColor', 'must be a CSS colour string'],
    [cafe({ markerStrokeWidth: '1' }), 'pinStyles.cafe.markerStrokeWidth', 'must be a finite number (px)'],
    [cafe({ markerPath: 42 }), 'pinStyles.cafe.markerPath', 'must be SVG path data'],
    [cafe({ popupAnchor: { x: 0, y: -50 } }), 'pinStyles.cafe.popupAnchor', 'must be [x, y] in px'],
    [cafe({ popupAnchor: ['0', '-50'] }), ['pinStyles.cafe.popupAnchor[0]', 'pinStyles.cafe.popupAnchor[1]'], 'must be a finite number (px)'],
    [cafe({ scale: '2x' }), 'pinStyles.cafe.scale', 'must be a finite number'],
    [cafe({ label: true }), 'pinStyles.cafe.label', 'must be a short text or a number'],
    [cafe({ shadow: 'yes' }), 'pinStyles.cafe.shadow', 'must be true or false'],
  ],

  'a wrong type in controls and locale': [
    [{ controls: { scale: 1 } }, 'controls.scale', CORNER],
    [{ controls: { geolocate: true } }, 'controls.geolocate', CORNER],
    [{ controls: { fullscreen: null } }, 'controls.fullscreen', CORNER],
    [{ controls: { list: 'middle' } }, 'controls.list', CORNER],
    [{ controls: { search: 1 } }, 'controls.search', CORNER],
    [{ hiddenCategories: ['cafe', 3] }, 'hiddenCategories[1]', 'must be a category name'],
    [{ searchFields: ['description', ''] }, 'searchFields[1]', 'must be the name of a pin property, not empty'],
    [{ searchFields: ['pin'] }, 'searchFields[0]', 'must be the name of a text property (not "pin" or "__proto__")'],
    [{ popupFields: ['address', ''] }, 'popupFields[1]', 'must be the name of a pin property, not empty'],
    [{ csv: { lat: '' } }, 'csv.lat', 'must be a column name, not empty'],
    [{ csv: { lng: 7 } }, 'csv.lng', 'must be a column name of the CSV header'],
    [{ locale: { 'NavigationControl.ZoomIn': 3 } }, 'locale.NavigationControl.ZoomIn', 'must be a string'],
    [{ locale: { 'Popup.Close': ['Close'] } }, 'locale.Popup.Close', 'must be a string'],
  ],

  'unknown keys': [
    [{ zoomm: 3 }, 'zoomm', 'is not a known option; did you mean zoom?'],
    [{ Zoom: 3 }, 'Zoom', 'is not a known option; did you mean zoom?'],
    [{ min_zoom: 3 }, 'min_zoom', 'is not a known option; did you mean minZoom?'],
    [{ centre: [2.35, 48.85] }, 'centre', 'is not a known option; did you mean center?'],
    [{ popupfields: ['address'] }, 'popupfields', 'did you mean popupFields?'],
    [{ colour: 'red', token: 'x' }, ['colour', 'token'], 'is not a known option'],
    [{ constructor: {} }, 'constructor', 'is not a known option'],
    [JSON.parse('{"__proto__": {"zoom": 3}}'), '__proto__', 'is not a known option'],
    [{ vectorLayer: { opacity: 0.5 } }, 'vectorLayer.opacity', 'is not a known option'],
    [{ vectorLayer: { accesToken: 'x' } }, 'vectorLayer.accesToken', 'is not a known option; did you mean accessToken?'],
    [JSON.parse('{"vectorLayer": {"__proto__": {}}}'), 'vectorLayer.__proto__', 'is not a known option'],
    [raster({ tileSize: 256 }), 'rasterLayers[0].tileSize', 'is not a known option'],
    [{ rasterLayers: [{ url: 'a/{z}/{x}/{y}.png' }, { url: 'b/{z}/{x}/{y}.png', zIndex: 2 }] }, 'rasterLayers[1].zIndex', 'is not a known option'],
    [{ controls: { compass: 'top-left' } }, 'controls.compass', 'is not a known option'],
    [{ controls: { zoom: 'top-left' } }, 'controls.zoom', 'is not a known option'],
    [{ controls: { Scale: 'top-left' } }, 'controls.Scale', 'is not a known option; did you mean scale?'],
    [{ controls: { legnd: true } }, 'controls.legnd', 'did you mean legend?'],
    [{ locale: { 'Zoom in': 'Plus' } }, 'locale.Zoom in', 'is not a known locale key'],
    [{ locale: { 'NavigationControl.Zoomin': 'Plus' } }, 'locale.NavigationControl.Zoomin', 'did you mean NavigationControl.ZoomIn?'],
    [{ locale: { 'Zoom in': 3 } }, 'locale.Zoom in', 'is not a known locale key'],
    [cafe({ glyph: 'x' }), 'pinStyles.cafe.glyph', 'is not a known option'],
    [cafe({ color: 'red' }), 'pinStyles.cafe.color', 'is not a known option'],
    [cafe({ markerColour: 'red' }), 'pinStyles.cafe.markerColour', 'did you mean markerColor?'],
    [{ csv: { latitude: 'Breite' } }, 'csv.latitude', 'is not a known option'],
    [{ csv: { lng: 'x', titel: 'Name' } }, 'csv.titel', 'did you mean title?'],
    [{ pinStyles: { cafe: {}, bar: { icon: 'fa-beer' } } }, 'pinStyles.bar.icon', 'is not a known option'],
    [{ pinStyles: { cafe: JSON.parse('{"__proto__": {"markerColor": "red"}}') } }, 'pinStyles.cafe.__proto__', 'is not a known option'],
    [{ controls: JSON.parse('{"__proto__": "top-left"}') }, 'controls.__proto__', 'is not a known option'],
    [{ locale: JSON.parse('{"__proto__": "Plus"}') }, 'locale.__proto__', 'is not a known locale key'],
    [{ pinStyles: JSON.parse('{"__proto__": {"markerColor": "not-a-colour"}}') }, 'pinStyles.__proto__', 'cannot be a category name in config'],
    [{ pinStyles: JSON.parse('{"cafe": {"markerColor": "red"}, "__proto__": {}}'), units: 'miles' }, ['pinStyles.__proto__', 'units']],
  ],

  'bad colours': [
    [cafe({ markerColor: 'not-a-colour' }), 'pinStyles.cafe.markerColor', COLOUR],
    [cafe({ markerColor: '#12345' }), 'pinStyles.cafe.markerColor', COLOUR],
    [cafe({ markerColor: '#ggg' }), 'pinStyles.cafe.markerColor', COLOUR],
    [cafe({ markerColor: '' }), 'pinStyles.cafe.markerColor', COLOUR],
    [cafe({ markerColor: 'rgb(0, 0)' }), 'pinStyles.cafe.markerColor', COLOUR],
    [cafe({ markerColor: 'currentColor' }), 'pinStyles.cafe.markerColor', COLOUR],
    [cafe({ markerColor: '#3FB1CE" onload="alert(1)' }), 'pinStyles.cafe.markerColor', COLOUR],
    [cafe({ markerStrokeColor: 'red; background: url(x)' }), 'pinStyles.cafe.markerStrokeColor', COLOUR],
    [cafe({ markerStrokeColor: 'url(#shadow)' }), 'pinStyles.cafe.markerStrokeColor', COLOUR],
    [cafe({ iconColor: 'expression(alert(1))' }), 'pinStyles.cafe.iconColor', COLOUR],
    [cafe({ iconColor: 'javascript:alert(1)' }), 'pinStyles.cafe.iconColor', COLOUR],
    [cafe({ iconColor: 'inherit' }), 'pinStyles.cafe.iconColor', COLOUR],
  ],

  'bad URLs': [
    [{ style: 'javascript:alert(1)' }, 'style', MUST_BE_A_URL],
    [{ style: 'JavaScript:alert(1)' }, 'style', MUST_BE_A_URL],
    [{ style: 'data:application/json,{"version":8,"sources":{},"layers":[]}' }, 'style', MUST_BE_A_URL],
    [{ style: '' }, 'style', 'must be a URL string, not empty'],
    [{ style: '   ' }, 'style', MUST_BE_A_URL],
    [{ style: ' https://tiles.example.com/style.json' }, 'style', MUST_BE_A_URL],
    [{ style: 'https://tiles.example.com/style.json\n' }, 'style', MUST_BE_A_URL],
    [{ style: 'ftp://tiles.example.com/style.json' }, 'style', MUST_BE_A_URL],
    [{ style: 'file:///etc/style.json' }, 'style', MUST_BE_A_URL],
    [{ style: 'blob:https://tiles.example.com/1234' }, 'style', MUST_BE_A_URL],
    [{ style: 'https://' }, 'style', MUST_BE_A_URL],
    [{ style: 'https://tiles example.com/style.json' }, 'style', MUST_BE_A_URL],
    [{ style: 'java\tscript:alert(1)' }, 'style', MUST_BE_A_URL],
    [{ style: 'java\nscript:alert(1)' }, 'style', MUST_BE_A_URL],
    [{ style: '\u0001javascript:alert(1)' }, 'style', MUST_BE_A_URL],
    [{ style: '\\\\' }, 'style', MUST_BE_A_URL],
    [{ style: { version: 7, sources: {}, layers: [] } }, 'style'],
    [{ style: { version: 8, layers: [] } }, 'style'],
    [{ pins: 'javascript:alert(1)' }, 'pins', MUST_BE_A_URL],
    [{ pins: 'data:application/geo+json,{"type":"FeatureCollection","features":[]}' }, 'pins', MUST_BE_A_URL],
    [{ pins: '' }, 'pins', 'must be a URL string, not empty'],
    [{ pins: 'pmtiles://' }, 'pins', 'must name the archive after pmtiles://'],
    [{ pins: '\t' }, 'pins', MUST_BE_A_URL],
    [{ pins: 'ftp://example.com/pins.json' }, 'pins', MUST_BE_A_URL],
    [{ pins: 'vbscript:msgbox(1)' }, 'pins', MUST_BE_A_URL],
    [{ pins: 'da\nta:application/json,{}' }, 'pins', MUST_BE_A_URL],
    [{ pins: '\u0000data:application/json,{}' }, 'pins', MUST_BE_A_URL],
    [{ pins: { type: 'Feature' } }, 'pins'],
    [{ pins: { type: 'FeatureCollection', features: {} } }, 'pins'],
    [raster({ url: 'https://tiles.example.com/tile.png' }), 'rasterLayers[0].url', TILE_TEMPLATE],
    [raster({ url: 'javascript:alert("{z}{x}{y}")' }), 'rasterLayers[0].url', TILE_TEMPLATE],
    [raster({ url: 'data:image/png;base64,{z}{x}{y}' }), 'rasterLayers[0].url', TILE_TEMPLATE],
    [raster({ url: 'ftp://tiles.example.com/{z}/{x}/{y}.png' }), 'rasterLayers[0].url', TILE_TEMPLATE],
    [raster({ url: 'java\tscript:alert("{z}{x}{y}")' }), 'rasterLayers[0].url', TILE_TEMPLATE],
    [raster({ url: '' }), 'rasterLayers[0].url', TILE_TEMPLATE],
    [raster({ url: ' tiles/{z}/{x}/{y}.png' }), 'rasterLayers[0].url', TILE_TEMPLATE],
    [{ providerOrigin: 'https://tiles.example.com/path' }, 'providerOrigin', 'scheme, host and port only'],
    [{ providerOrigin: 'javascript:alert(1)' }, 'providerOrigin', 'must be an origin'],
    [{ providerOrigin: 'tiles.example.com' }, 'providerOrigin', 'must be an origin'],
    [{ providerOrigin: 'ftp://tiles.example.com' }, 'providerOrigin', 'must be an origin'],
    [{ providerOrigin: '' }, 'providerOrigin', 'must be an origin'],
  ],

  'bad corners': [
    [{ controls: { scale: 'middle' } }, 'controls.scale', CORNER],
    [{ controls: { scale: 'Top-Left' } }, 'controls.scale', CORNER],
    [{ controls: { navigation: 'top left' } }, 'controls.navigation', CORNER],
    [{ controls: { attribution: 'topright' } }, 'controls.attribution', CORNER],
    [{ controls: { fullscreen: 'left' } }, 'controls.fullscreen', CORNER],
    [{ controls: { view: ['top-left'] } }, 'controls.view', CORNER],
    [{ controls: { geolocate: '' } }, 'controls.geolocate', CORNER],
    [{ controls: { scale: 'bottom-left', attribution: 'bottom-centre' } }, 'controls.attribution', CORNER],
  ],

  'bad units': [
    [{ units: 'furlongs' }, 'units', UNITS],
    [{ units: 'Metric' }, 'units', UNITS],
    [{ units: 'km' }, 'units', UNITS],
    [{ units: 'imperial ' }, 'units', UNITS],
    [{ units: '' }, 'units', UNITS],
    [{ units: null }, 'units', UNITS],
    [{ units: ['metric'] }, 'units', UNITS],
  ],

  'NaN and Infinity': [
    [{ zoom: Number.NaN }, 'zoom', 'must be a finite number (zoom)'],
    [{ zoom: Number.POSITIVE_INFINITY }, 'zoom', 'must be a finite number (zoom)'],
    [{ bearing: Number.NaN }, 'bearing', 'must be a finite number (degrees)'],
    [{ pitch: Number.NEGATIVE_INFINITY }, 'pitch', 'must be a finite number (degrees)'],
    [{ minZoom: Number.NaN }, 'minZoom', 'must be a finite number (zoom)'],
    [{ maxZoom: Number.POSITIVE_INFINITY }, 'maxZoom', 'must be a finite number (zoom)'],
    [{ minPitch: Number.NEGATIVE_INFINITY }, 'minPitch', 'must be a finite number (degrees)'],
    [{ maxPitch: Number.POSITIVE_INFINITY, minPitch: 10 }, 'maxPitch', 'must be a finite number (degrees)'],
    [{ center: [Number.NaN, 0] }, 'center[0]', 'must be a finite number (longitude)'],
    [{ center: [0, Number.POSITIVE_INFINITY] }, 'center[1]', 'must be a finite number (latitude)'],
    [{ fadeDuration: Number.NaN }, 'fadeDuration', 'must be a finite number'],
    [{ pixelRatio: Number.POSITIVE_INFINITY }, 'pixelRatio', 'must be a finite number'],
    [{ domPinLimit: Number.POSITIVE_INFINITY }, 'domPinLimit'],
    [raster({ opacity: Number.NaN }), 'rasterLayers[0].opacity', 'must be a finite number'],
    [{ vectorLayer: { padding: Number.POSITIVE_INFINITY } }, 'vectorLayer.padding', 'must be a finite number'],
    [cafe({ iconSize: Number.NaN }), 'pinStyles.cafe.iconSize', 'must be a finite number (px)'],
    [cafe({ popupAnchor: [0, Number.NaN] }), 'pinStyles.cafe.popupAnchor[1]', 'must be a finite number (px)'],
    [cafe({ scale: Number.POSITIVE_INFINITY }), 'pinStyles.cafe.scale', 'must be a finite number'],
  ],

  'values out of range or otherwise wrong': [
    [{ center: [10] }, 'center', 'must be [longitude, latitude]'],
    [{ center: [2, 48, 100] }, 'center', 'must be [longitude, latitude]'],
    [{ center: [200, 0] }, 'center[0]', 'longitude must be between -180 and 180'],
    [{ center: [0, -91] }, 'center[1]', 'latitude must be between -90 and 90'],
    [{ view: 'satellite' }, 'view', 'must be "vector" or "hybrid"'],
    [{ accessToken: '' }, 'accessToken', 'must not be empty'],
    [{ accessTokenHeader: 'X Api: Key' }, 'accessTokenHeader', 'must be a header name'],
    [{ bearingSnap: -1 }, 'bearingSnap', 'must be 0 or more (degrees)'],
    [{ clickTolerance: -3 }, 'clickTolerance', 'must be 0 or more (px)'],
    [{ fadeDuration: -300 }, 'fadeDuration', 'must be 0 or more (ms)'],
    [{ styleTimeout: 0 }, 'styleTimeout', 'must be more than 0 (ms)'],
    [{ pinsTimeout: 0 }, 'pinsTimeout', 'must be more than 0 (ms)'],
    [{ pinsTimeout: '10s' }, 'pinsTimeout', 'must be a finite number'],
    [{ maxPinBytes: 0 }, 'maxPinBytes', 'must be more than 0 (bytes)'],
    [{ maxPinBytes: 1.5e6 + 0.5 }, 'maxPinBytes', 'must be a whole number of bytes'],
    [{ addressPins: 'all' }, 'addressPins', 'must be "same-origin", "any" or a list of origins'],
    [{ addressPins: ['https://data.example.com/pins'] }, 'addressPins[0]', 'must be an origin'],
    [{ addressConfig: 'other' }, 'addressConfig', 'must be "same-origin", "any" or a list of origins'],
    [{ addressConfig: ['https://data.example.com/site.json'] }, 'addressConfig[0]', 'must be an origin'],
    [{ pixelRatio: 0 }, 'pixelRatio', 'must be more than 0'],
    [{ pixelRatio: 5 }, 'pixelRatio', 'must be at most 4'],
    [{ domPinLimit: 2.5 }, 'domPinLimit', 'must be a whole number of pins'],
    [{ domPinLimit: -1 }, 'domPinLimit', 'must be 0 or more'],
    [{ domPinLimit: 5000 }, 'domPinLimit', 'must be at most'],
    [{ openPin: '' }, 'openPin', 'must be a pin id, not empty'],
    [{ locale: { 'NavigationControl.ZoomIn': '' } }, 'locale.NavigationControl.ZoomIn', 'must not be empty'],
    [raster({ opacity: 2 }), 'rasterLayers[0].opacity', 'must be between 0 and 1'],
    [raster({ opacity: -0.5 }), 'rasterLayers[0].opacity', 'must be between 0 and 1'],
    [raster({ minZoom: 5, maxZoom: 2 }), 'rasterLayers[0].minZoom', 'must not be greater than maxZoom'],
    [raster({ minZoom: -3 }), 'rasterLayers[0].minZoom', 'must be at least -2'],
    [raster({ maxZoom: 23 }), 'rasterLayers[0].maxZoom', 'must be at most 22'],
    [raster({ maxTileZoom: 2.5 }), 'rasterLayers[0].maxTileZoom', 'must be a whole tile zoom level'],
    [raster({ maxTileZoom: 31 }), 'rasterLayers[0].maxTileZoom', 'must be at most 30'],
    [{ vectorLayer: { padding: -0.1 } }, 'vectorLayer.padding', 'must be 0 or more'],
    [{ vectorLayer: { updateInterval: -1 } }, 'vectorLayer.updateInterval', 'must be 0 or more (ms)'],
    [{ vectorLayer: { accessToken: '' } }, 'vectorLayer.accessToken', 'must not be empty'],
    [{ vectorLayer: { pane: '' } }, 'vectorLayer.pane'],
    [{ vectorLayer: { pane: '__proto__' } }, 'vectorLayer.pane', 'must be a Leaflet pane name, not "__proto__"'],
    [cafe({ markerFillOpacity: 1.5 }), 'pinStyles.cafe.markerFillOpacity', 'must be between 0 and 1'],
    [cafe({ markerStrokeWidth: -1 }), 'pinStyles.cafe.markerStrokeWidth', 'must be 0 or more (px)'],
    [cafe({ iconSize: -16 }), 'pinStyles.cafe.iconSize', 'must be 0 or more (px)'],
    [cafe({ popupAnchor: [0] }), 'pinStyles.cafe.popupAnchor', 'must be [x, y] in px'],
    [cafe({ markerPath: 'M0 0" onload="alert(1)' }), 'pinStyles.cafe.markerPath', 'must be SVG path data'],
    [cafe({ markerPath: '<path d="M0 0"/>' }), 'pinStyles.cafe.markerPath', 'must be SVG path data'],
    [cafe({ markerPath: 'L 10 10' }), 'pinStyles.cafe.markerPath', 'must be SVG path data'],
    [cafe({ scale: 4 }), 'pinStyles.cafe.scale', 'must be between 0.5 and 3'],
    [cafe({ scale: 0 }), 'pinStyles.cafe.scale', 'must be between 0.5 and 3'],
    [cafe({ label: 'TOOLONG' }), 'pinStyles.cafe.label', 'must be at most 3 characters'],
    [cafe({ label: 1234 }), 'pinStyles.cafe.label', 'must be at most 3 characters'],
  ],

  'values only code can give': [
    [{ zoom: 10n }, 'zoom', 'must be a finite number (zoom)'],
    [{ zoom: Symbol('zoom') }, 'zoom', 'must be a finite number (zoom)'],
    [{ zoom: new Number(3) }, 'zoom', 'must be a finite number (zoom)'],
    [{ center: new Float64Array([2, 48]) }, 'center', 'must be [longitude, latitude]'],
    [{ zoom: () => 3 }, 'zoom', 'must be a finite number (zoom)'],
    [throwingGetter, 'config', 'could not be read (zoom is not ready)'],
    [throwingProxy, 'config', 'could not be read (no keys for you)'],
    [{ pinStyles: { cafe: throwingProxy } }, 'config', 'could not be read'],
  ],

  'several problems in one pass': [
    [{ style: 'javascript:alert(1)', pins: 'data:,x', controls: { scale: 'middle' }, pinStyles: { cafe: { markerColor: 'nope' } } }, ['style', 'pins', 'controls.scale', 'pinStyles.cafe.markerColor']],
  ],
};

/** A readable one-line name for a config (NaN, Infinity, BigInt and functions included). */
export function show(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) return `«${v}»`;
      if (typeof v === 'bigint') return `«${v}n»`;
      if (v instanceof Number) return `«new Number(${v.valueOf()})»`;
      if (typeof v === 'symbol' || typeof v === 'function') return `«${typeof v}»`;
      return v;
    });
  } catch {
    text = '«an object that cannot be read»';
  }
  text ??= `«${typeof value}»`;
  return text.length > 110 ? `${text.slice(0, 110)}…` : text;
}

