import { StrictMode, createContext, useContext, useRef, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Pinmap, type PinmapPin, type PinmapProps, type PinmapRef, type ViewState } from '../../src/index.ts';

/**
 * A React app as a developer writes one, under StrictMode, for tests/react-api.spec.ts: it
 * mounts with the props in `?props=<JSON>`, then the test sets `<Pinmap/>`'s props through `window.harness.setProps`, reads what its handlers were
 * told from `window.harness.events`, and calls the ref's methods through `window.harness.ref`.
 * With `controlled` set, the app keeps the camera in its state from `onMove` (`follow: false`:
 * it ignores `onMove`, so the map must spring back). With `store` set, it is a store locator:
 * popups of its own (`renderPopup`) that read and change the app's state through a context, and a
 * list of the stores beside the map that selects one (`selectedPinId`, `onSelect`). With
 * `priceTags` set, the pins named in `highlightedPins` are price tags of the app's (`renderPin`).
 */
type HarnessProps = Omit<PinmapProps, 'ref'> & { controlled?: { viewState: ViewState; follow: boolean }; store?: boolean; priceTags?: boolean };

/** A pin as a price tag: the app's element for a pin named in `highlightedPins`. */
function PriceTag({ pin }: { pin: PinmapPin }) {
  return <span className="price-tag">€{pin.properties.price}</span>;
}

/** The app's state that its popups read and change: a basket of store ids. */
const Basket = createContext<{ stores: string[]; add: (id: string) => void }>({ stores: [], add: () => {} });

/** A store's popup: its hours, a link, and a button that changes the app's state. */
function StoreCard({ pin }: { pin: PinmapPin }) {
  const basket = useContext(Basket);
  const [more, setMore] = useState(false);
  return (
    <div className="store-card">
      <h3>{pin.title}</h3>
      <p>Open {pin.properties.hours}</p>
      <a href={`https://example.com/stores/${pin.id}`}>Store page</a>
      <p className="basket-count">{basket.stores.length} in basket</p>
      <button type="button" onClick={() => basket.add(pin.id)}>
        Add to basket
      </button>
      <button type="button" onClick={() => setMore(true)}>
        More
      </button>
      {more && <p className="store-more">Parking behind the store, two floors, open late on Thursdays, closed on public holidays.</p>}
    </div>
  );
}

interface Harness {
  setProps(props: HarnessProps): void;
  events: { type: string; detail?: unknown }[];
  ref: { current: PinmapRef | null };
  viewState: ViewState | undefined;
}

declare global {
  interface Window {
    harness: Harness;
  }
}

const events: Harness['events'] = [];
const ref: Harness['ref'] = { current: null };

function App() {
  const [props, setProps] = useState<HarnessProps>(() => JSON.parse(new URLSearchParams(window.location.search).get('props') ?? '{}'));
  const [viewState, setViewState] = useState<ViewState | undefined>(props.controlled?.viewState);
  const mapRef = useRef<PinmapRef>(null);
  const [basket, setBasket] = useState<string[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  window.harness.setProps = (next) => {
    setProps(next);
    setViewState(next.controlled?.viewState);
  };
  window.harness.viewState = viewState;
  ref.current = mapRef.current;
  const { controlled, store, priceTags, ...rest } = props;
  const map = (
    <Pinmap
      {...rest}
      ref={(handle) => {
        mapRef.current = handle;
        ref.current = handle;
      }}
      viewState={controlled ? viewState : undefined}
      onMove={(event) => {
        if (controlled?.follow) setViewState(event.viewState);
        events.push({ type: 'move', detail: event.viewState });
      }}
      onLoad={() => events.push({ type: 'load' })}
      onError={(event) => events.push({ type: 'error', detail: event.error.message })}
      onPinClick={(event) => events.push({ type: 'pinClick', detail: event.id })}
      onPopupOpen={(event) => events.push({ type: 'popupOpen', detail: event.id })}
      onPopupClose={(event) => events.push({ type: 'popupClose', detail: event.id })}
      {...(priceTags ? { renderPin: (pin: PinmapPin) => <PriceTag pin={pin} /> } : {})}
      {...(store
        ? {
            renderPopup: (pin: PinmapPin) => <StoreCard pin={pin} />,
            selectedPinId: selected,
            onSelect: (id: string | null) => {
              events.push({ type: 'select', detail: id });
              setSelected(id);
            },
          }
        : {})}
    />
  );
  if (!store) return map;
  return (
    <Basket.Provider value={{ stores: basket, add: (id) => setBasket((now) => [...now, id]) }}>
      <div className="store-app">
        <ul className="store-list" aria-label="Stores">
          {['paris', 'lyon', 'nice'].map((id) => (
            <li key={id}>
              <button type="button" aria-pressed={selected === id} onClick={() => setSelected(id)}>
                {id}
              </button>
            </li>
          ))}
        </ul>
        <p className="app-basket">{basket.length} in basket</p>
        {map}
      </div>
    </Basket.Provider>
  );
}

window.harness = { setProps: () => {}, events, ref, viewState: undefined };
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
const root = document.getElementById('root')!;
// With `?hydrate`, the page starts as a server would send it (the markup of `renderToString`), and
// React hydrates it.
if (new URLSearchParams(window.location.search).has('hydrate')) {
  root.innerHTML = renderToString(app);
  hydrateRoot(root, app);
} else {
  createRoot(root).render(app);
}
