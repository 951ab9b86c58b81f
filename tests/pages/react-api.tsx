import { StrictMode, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Pinmap, type PinmapProps, type PinmapRef, type ViewState } from '../../src/index.ts';

/**
 * A React app as a developer writes one, under StrictMode, for tests/react-api.spec.ts: it
 * mounts with the props in `?props=<JSON>`, then the test sets `<Pinmap/>`'s props through `window.harness.setProps`, reads what its handlers were
 * told from `window.harness.events`, and calls the ref's methods through `window.harness.ref`.
 * With `controlled` set, the app keeps the camera in its state from `onMove` (`follow: false`:
 * it ignores `onMove`, so the map must spring back).
 */
type HarnessProps = Omit<PinmapProps, 'ref'> & { controlled?: { viewState: ViewState; follow: boolean } };

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
  window.harness.setProps = (next) => {
    setProps(next);
    setViewState(next.controlled?.viewState);
  };
  window.harness.viewState = viewState;
  ref.current = mapRef.current;
  const { controlled, ...rest } = props;
  return (
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
    />
  );
}

window.harness = { setProps: () => {}, events, ref, viewState: undefined };
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
