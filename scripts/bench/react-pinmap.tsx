import { createRoot } from 'react-dom/client';
import { Pinmap, type PinmapPin } from '../../src/index.ts';

/**
 * The `<Pinmap/>` page of `npm run bench -- --react` (`react-pins.ts`): the React component as an
 * app renders it, on the page's basemap, with the pins of `pins`, and from the address:
 * `popup=react` (a popup of the app's own, `renderPopup`: a heading, the hours, a link and a
 * button; else the default popup) and `tags=<url>` (a JSON list of pin ids drawn as price tags by
 * `renderPin`). Its root says `data-map-state` as the app's does.
 */

const params = new URLSearchParams(window.location.search);
const center = JSON.parse(params.get('center') ?? '[10, 30]') as [number, number];
const zoom = Number(params.get('zoom') ?? '2');
const fadeDuration = Number(params.get('fadeDuration') ?? '300');
const pins = params.get('pins') ?? undefined;
const style = new URL(params.get('style') ?? '/basemap/style.json', window.location.href).href;
const tagsUrl = params.get('tags');

function StoreCard({ pin }: { pin: PinmapPin }) {
  return (
    <div className="store-card">
      <h3>{pin.title}</h3>
      <p>Open 9:00–19:00</p>
      <a href={`https://example.com/stores/${pin.id}`}>Store page</a>
      <button type="button">Add to basket</button>
    </div>
  );
}

const tagsLoaded: Promise<string[]> = tagsUrl ? fetch(tagsUrl).then((response) => response.json() as Promise<string[]>) : Promise.resolve([]);
void tagsLoaded.then((tags) =>
  createRoot(document.getElementById('root')!).render(
    <Pinmap
      style={{ width: '100%', height: '100%' }}
      config={{ style, center, zoom, fadeDuration, ...(pins ? { pins } : {}) }}
      {...(params.get('popup') === 'react' ? { renderPopup: (pin: PinmapPin) => <StoreCard pin={pin} /> } : {})}
      {...(tags.length ? { highlightedPins: tags, renderPin: (pin: PinmapPin) => <span className="price-tag">€{pin.title.slice(4)}</span> } : {})}
    />,
  ),
);
