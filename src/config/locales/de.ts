import type { Locale } from '../locale.ts';

/**
 * Pinmap in German: every key of the locale table (a unit test fails when one is missing).
 * Use it as the config's `locale` (`locale: pinmapLocaleDe`), or spread it and override single
 * texts (`locale: { ...pinmapLocaleDe, 'Popup.Close': 'Schließen' }`).
 */
export const pinmapLocaleDe: Locale = {
  'Pinmap.Region': 'Interaktive Karte',
  'NavigationControl.ZoomIn': 'Vergrößern',
  'NavigationControl.ZoomOut': 'Verkleinern',
  'NavigationControl.ResetBearing': 'Nach Norden ausrichten',
  'NavigationControl.RotationUnavailable': 'In dieser Ansicht lässt sich die Karte nicht drehen',
  'GeolocateControl.FindMyLocation': 'Meinen Standort finden',
  'GeolocateControl.LocationNotAvailable': 'Standort nicht verfügbar',
  'GeolocateControl.NeedsSecurePage': 'Der Standort braucht eine sichere (https-)Seite',
  'FullscreenControl.Enter': 'Vollbild',
  'FullscreenControl.Exit': 'Vollbild beenden',
  'AttributionControl.ToggleAttribution': 'Quellenangaben ein- oder ausblenden',
  'ScaleControl.ChangeUnits': 'Maßeinheit wechseln',
  'ScaleControl.Meters': 'm',
  'ScaleControl.Kilometers': 'km',
  'ScaleControl.Feet': 'ft',
  'ScaleControl.Miles': 'mi',
  'ScaleControl.NauticalMiles': 'sm',
  'ViewControl.Label': 'Kartenansicht',
  'ViewControl.Vector': 'Karte',
  'ViewControl.Hybrid': 'Hybrid',
  'Popup.Close': 'Popup schließen',
  'PinLayer.Cluster': '{count} Pins: hineinzoomen',
  'PinLayer.Dismiss': 'Schließen',
  'PinLayer.Retry': 'Erneut versuchen',
  'PinList.Open': 'Pins im Kartenausschnitt auflisten',
  'PinList.Title': 'Pins im Kartenausschnitt',
  'PinList.Count': '{count} Pins im Kartenausschnitt',
  'PinList.CountOne': '1 Pin im Kartenausschnitt',
  'PinList.Empty': 'Keine Pins im Kartenausschnitt',
  'PinList.ShownOnly': 'Die Pins auf der Karte: hineinzoomen, um die in Gruppen aufzulisten',
  'Legend.Title': 'Legende',
  'Legend.Show': 'Legende anzeigen',
  'Legend.Count': '{count} Pins',
  'Legend.CountOne': '1 Pin',
  'Search.Label': 'Pins durchsuchen',
  'Search.Placeholder': 'Pins suchen',
  'Search.Results': '{count} Pins gefunden',
  'Search.ResultsOne': '1 Pin gefunden',
  'Search.NoResults': 'Keine Pins gefunden',
  'Search.Clear': 'Suche löschen',
};
