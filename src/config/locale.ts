/**
 * Every text the controls show or announce, in one table. Keys are MapLibre's own locale keys
 * where MapLibre has the string (so a MapLibre locale table works as a Pinmap `locale`), and
 * MapLibre's English strings are the defaults; Pinmap's own strings follow the same naming.
 * Config `locale` overrides any of them; an unknown key is a config error.
 */
export const DEFAULT_LOCALE = {
  'Pinmap.Region': 'Interactive map',
  'NavigationControl.ZoomIn': 'Zoom in',
  'NavigationControl.ZoomOut': 'Zoom out',
  'NavigationControl.ResetBearing': 'Reset bearing to north',
  'NavigationControl.RotationUnavailable': 'Rotation is not available in this view',
  'GeolocateControl.FindMyLocation': 'Find my location',
  'GeolocateControl.LocationNotAvailable': 'Location not available',
  'GeolocateControl.NeedsSecurePage': 'Location needs a secure (https) page',
  'FullscreenControl.Enter': 'Enter fullscreen',
  'FullscreenControl.Exit': 'Exit fullscreen',
  'AttributionControl.ToggleAttribution': 'Toggle attribution',
  'ScaleControl.ChangeUnits': 'Change scale units',
  'ScaleControl.Meters': 'm',
  'ScaleControl.Kilometers': 'km',
  'ScaleControl.Feet': 'ft',
  'ScaleControl.Miles': 'mi',
  'ScaleControl.NauticalMiles': 'nm',
  'ViewControl.Label': 'Map view',
  'ViewControl.Vector': 'Map',
  'ViewControl.Hybrid': 'Hybrid',
  'Popup.Close': 'Close popup',
  'PinLayer.Cluster': '{count} pins: zoom in',
  'PinLayer.Pins': 'Pins, {count} in view',
  'PinLayer.ZoomedIn': 'Zoomed in: {count} pins',
  'Pinmap.SkipToControls': 'Skip to map controls',
  'PinLayer.Dismiss': 'Dismiss',
  'PinLayer.Retry': 'Retry',
  // Said once, past the embedded basemap's detail (zoom 11): the commands that give the map streets
  // (README, "Streets for your area"), shown as code between backticks; {pins}: the pin file's name.
  'Basemap.NoStreets': 'No streets offline: run `pinmap streets {pins} -o area.pmtiles`, then `pinmap serve {pins} --streets area.pmtiles`',
  // A large pin file on its way: how much of it has come (in tens of per cent, or in MB when its size is unknown).
  'PinLayer.Loading': 'Loading pins… {percent} %',
  'PinLayer.LoadingSize': 'Loading pins… {size}',
  // The pin panels: the list of the pins in view, the legend and the search box.
  'PinList.Open': 'List the pins in view',
  'PinList.Title': 'Pins in view',
  'PinList.Count': '{count} pins in view',
  'PinList.CountOne': '1 pin in view',
  'PinList.Empty': 'No pins in view',
  'PinList.ShownOnly': 'Pins in bubbles are listed by bubble: choose one to zoom in',
  'PinList.ShowAll': 'Show all pins',
  // A bubble the map cannot zoom into any further lists its pins (see README, "Pins at the maximum zoom").
  'PinList.BubbleTitle': 'Pins in this bubble',
  'PinList.BubbleCount': '{count} pins here',
  'PinList.BubbleFirst': '{count} pins here, the first {listed} listed',
  'PinList.BackToView': 'Pins in view',
  'PinList.Close': 'Close the list',
  'Legend.Title': 'Legend',
  'Legend.Show': 'Show the legend',
  'Legend.Count': '{count} pins',
  'Legend.CountOne': '1 pin',
  'Legend.AllPins': 'Pins',
  'Legend.Uncategorised': 'Other pins',
  'Search.Label': 'Search the pins',
  'Search.Placeholder': 'Search pins',
  'Search.Results': '{count} pins found',
  'Search.ResultsOne': '1 pin found',
  'Search.NoResults': 'No pins found',
  // Pre-tiled pins: a count that is a lower bound, a common word, an archive without search, a failure.
  'Search.ResultsAtLeast': 'At least {count} pins found',
  'Search.TypeMore': 'Type more of each word to find these pins',
  'Search.NoIndex': 'This pin archive has no search index: make it again with pinmap-tile-pins',
  'Search.Failed': 'The pins could not be searched',
  'Search.Clear': 'Clear the search',
} as const;

/** A key of the locale table, e.g. `NavigationControl.ZoomIn` (README, "Controls"). */
export type LocaleKey = keyof typeof DEFAULT_LOCALE;
export type Locale = Record<LocaleKey, string>;
export const LOCALE_KEYS = Object.keys(DEFAULT_LOCALE) as [LocaleKey, ...LocaleKey[]];

/** The full table: defaults with the site's overrides on top. */
export function localeWith(overrides: Partial<Record<LocaleKey, string>> = {}): Locale {
  return { ...DEFAULT_LOCALE, ...overrides };
}
