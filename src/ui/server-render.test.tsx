import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Pinmap } from '../index.ts';

/**
 * `<Pinmap/>` rendered on a server (Node, no DOM) through the package's public entry: the
 * container with its name and data state, which the map fills once the page hydrates.
 */
describe('server rendering', () => {
  it('renders the container with its aria name, class and size, loading, and no map in it yet', () => {
    expect(typeof document).toBe('undefined');
    const html = renderToString(
      <Pinmap
        className="store-map"
        style={{ width: 480, height: 360 }}
        initialViewState={{ longitude: 2.35, latitude: 48.86, zoom: 5 }}
        pins={{ type: 'FeatureCollection', features: [] }}
        renderPopup={(pin) => <p>{pin.title}</p>}
        selectedPinId={null}
      />,
    );
    expect(html).toBe(
      '<div class="pinmap store-map" style="width:480px;height:360px" role="region" aria-label="Interactive map" data-selection="" data-map-state="loading" data-view="vector" data-theme="light">' +
        '<div class="pinmap-map"></div></div>',
    );
  });
});
