import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { mapStatusMachine, type MapStatus } from '../machines/map-status.machine.ts';
import type { Camera, ViewName } from '../map/address.ts';
import type { MapAdapter } from '../map/adapter.ts';
import { configKey, safeParseConfig, type ConfigError, type PinmapConfig, type PinmapConfigInput } from '../map/config.ts';
import { createEngine } from '../map/engines.ts';
import { describePinSet } from '../map/pin-data.ts';
import { loadPinSet } from '../map/pin-source.ts';
import { reasonOf } from '../map/errors.ts';
import { DEFAULT_LOCALE, localeWith } from '../map/locale.ts';
import { Controls, type PinToOpen } from './controls/Controls.tsx';
import { ErrorPanel } from './ErrorPanel.tsx';
import { inspectOptions } from './inspect.ts';
import { PinNotice } from './PinNotice.tsx';
import { useAddressSync, useOpenPinAddressSync } from './use-address-sync.ts';
import { useTheme } from './use-theme.ts';
import './pinmap.css';

export type StatusListener = (status: MapStatus, error?: string) => void;

export interface PinmapProps {
  /** The site's config; validated here, with its errors shown in place of the map. */
  config?: PinmapConfigInput;
  /** Told every time the map's status changes; with the error's text when it fails. */
  onStatusChange?: StatusListener;
  className?: string;
}

/**
 * The Pinmap component: validates its config, then renders the map, its status as
 * `data-map-state`, and whatever error stops it.
 */
export function Pinmap({ config, onStatusChange, className }: PinmapProps) {
  // Site owners write config inline; parsing keys on its content, not on object identity.
  const key = configKey(config);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const parsed = useMemo(() => safeParseConfig(config), [key]);

  if (!parsed.ok) return <ConfigErrorView error={parsed.error} theme={requestedTheme(config)} onStatusChange={onStatusChange} className={className} />;
  return <PinmapView config={parsed.config} onStatusChange={onStatusChange} className={className} />;
}

type ViewProps<T> = T & { onStatusChange?: StatusListener | undefined; className?: string | undefined };

function ConfigErrorView({ error, theme: requested, onStatusChange, className }: ViewProps<{ error: ConfigError; theme: PinmapConfig['theme'] }>) {
  const listener = useLatest(onStatusChange);
  const theme = useTheme(requested);
  useEffect(() => {
    listener.current?.('error', error.message);
  }, [error, listener]);
  return (
    <div className={rootClass(className)} data-map-state="error" data-theme={theme}>
      <ErrorPanel title="This map's configuration has errors" problems={error.problems} />
    </div>
  );
}

function PinmapView({ config, onStatusChange, className }: ViewProps<{ config: PinmapConfig }>) {
  const rootRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const [adapter, setAdapter] = useState<MapAdapter>();
  const [notice, setNotice] = useState<Notice>();
  const [engineNotice, setEngineNotice] = useState<string>();
  const [pinToOpen, setPinToOpen] = useState<PinToOpen>();
  const statusActor = useActorRef(mapStatusMachine, inspectOptions());
  const status = useSelector(statusActor, (s) => s.value as MapStatus);
  const failure = useSelector(statusActor, (s) => s.context.failure);

  // The view shown: the config's, until the view switch picks the other. A new config starts over.
  const [chosen, setChosen] = useState<{ for: PinmapConfig; view: ViewName }>({ for: config, view: config.view });
  const view = chosen.for === config ? chosen.view : config.view;
  // The theme shown (config `theme`, `auto` following the system live). A new map starts in the
  // theme shown now; a change later reaches the map through `setTheme`, without making it again.
  const theme = useTheme(config.theme);
  const shownTheme = useLatest(theme);
  // What a view switch carries to the next map: the camera and the open popup.
  const carried = useRef<{ camera: Camera; openPin: string | null }>(undefined);
  const openPin = useRef<string | null>(null);

  const switchView = useCallback(
    (next: ViewName) => {
      if (adapter) carried.current = { camera: adapter.getCamera(), openPin: openPin.current };
      setChosen({ for: config, view: next });
      if (config.hash) writeViewToAddress(next);
    },
    [adapter, config],
  );

  // One map per mounted component, config and view. Under StrictMode React mounts, unmounts and
  // mounts again: the first map is removed (with its WebGL context) before the second is made,
  // so exactly one map, one context and one set of controls remain.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let live = true; // a removed map's late events must not move the next one's status
    const handoff = carried.current;
    carried.current = undefined;
    const engineConfig = withCarriedCamera({ ...config, view, theme: shownTheme.current }, handoff?.camera);
    statusActor.send({ type: 'map.created' });
    setNotice(undefined);
    setEngineNotice(undefined);
    let engine: MapAdapter | undefined;
    let stopWatchingPin: (() => void) | undefined;
    let retry: { unsubscribe: () => void } | undefined;
    const pinRequest = new AbortController();
    const readPins = (pins: NonNullable<typeof config.pins>) => loadPinSet(pins, config.pinStyles, document.baseURI, pinRequest.signal);
    // The pins are fetched and checked at once, beside the map's own start, and placed once it is made.
    let earlyPins = config.pins === undefined ? undefined : readPins(config.pins);
    earlyPins?.catch(() => {}); // heard by loadPins; a map that could not be made needs no pins

    createEngine(container, engineConfig, {
      onStatus: (event) => {
        if (live) statusActor.send(event);
      },
      onNotice: (message) => {
        if (live) setEngineNotice(message);
      },
    }).then(
      (made) => {
        if (!live) return made.destroy();
        engine = made;
        retry = statusActor.on('map.retryRequested', () => made.retry());
        stopWatchingPin = made.onOpenPinChange((id) => {
          openPin.current = id;
        });
        setAdapter(made);
        loadPins(made);
      },
      (error: unknown) => {
        // The hybrid view's code could not be fetched (the network went away, a deploy replaced it).
        if (live) statusActor.send({ type: 'map.failed', failure: { message: `The ${view} view could not be loaded: ${reasonOf(error)}`, retryable: false } });
      },
    );

    // Pins load beside the map; whatever is wrong with them is a notice, and the map goes on.
    function loadPins(made: MapAdapter) {
      if (config.pins === undefined) return;
      const pins = earlyPins ?? readPins(config.pins);
      earlyPins = undefined; // a Retry fetches them again
      pins.then(
        (set) => {
          if (!live) return;
          const report = describePinSet(set);
          if (report.console.length > 0) console.warn(`Pinmap: ${report.console.join('\n')}`);
          setNotice(report.notice === undefined ? undefined : { text: report.notice });
        },
        (error: unknown) => {
          if (!live) return;
          console.error(`Pinmap: ${reasonOf(error)}`);
          // The basemap stays; the pins can be asked for again.
          setNotice({
            text: reasonOf(error),
            retry: () => {
              setNotice(undefined);
              if (live) loadPins(made);
            },
          });
        },
      );
      const placed = made.setPins(pins);
      // A popup open in the other view opens again here, where the camera is; else `?pin=`'s.
      const id = handoff ? (handoff.openPin ?? undefined) : config.openPin;
      if (id === undefined) return;
      setPinToOpen({
        id,
        placed,
        fly: !handoff,
        onMissing: () => {
          if (!live) return;
          console.warn(`Pinmap: there is no pin with the id "${id}" to open.`);
          setNotice({ text: `There is no pin "${id}" on this map.` });
        },
      });
    }

    return () => {
      live = false;
      pinRequest.abort();
      retry?.unsubscribe();
      stopWatchingPin?.();
      openPin.current = null;
      setAdapter(undefined);
      setPinToOpen(undefined);
      engine?.destroy();
    };
  }, [config, view, statusActor, shownTheme]);

  useEffect(() => {
    adapter?.setTheme(theme);
  }, [adapter, theme]);

  useAddressSync(adapter, config.hash);
  useOpenPinAddressSync(adapter, config.hash);

  const listener = useLatest(onStatusChange);
  useEffect(() => {
    listener.current?.(status, failure?.message);
  }, [status, failure, listener]);

  const locale = localeWith(config.locale);
  const dismissLabel = locale['PinLayer.Dismiss'];
  return (
    // A landmark of its own, so the controls around the map's canvas are inside one for screen readers.
    <div className={rootClass(className)} ref={rootRef} role="region" aria-label={regionLabel(config)} data-map-state={status} data-view={view} data-theme={theme}>
      <div className="pinmap-map" ref={containerRef} />
      {(engineNotice || notice) && (
        <div className="pinmap-notices">
          {engineNotice && <PinNotice text={engineNotice} dismissLabel={dismissLabel} onDismiss={() => setEngineNotice(undefined)} alert />}
          {notice && (
            <PinNotice
              text={notice.text}
              dismissLabel={dismissLabel}
              onDismiss={() => setNotice(undefined)}
              alert={notice.retry !== undefined}
              {...(notice.retry ? { retryLabel: locale['PinLayer.Retry'], onRetry: notice.retry } : {})}
            />
          )}
        </div>
      )}
      {adapter && status !== 'error' && <Controls key={adapterKey(adapter)} adapter={adapter} config={config} root={rootRef} pinToOpen={pinToOpen} onSwitchView={switchView} />}
      {failure && (
        <ErrorPanel
          title={failure.retryable ? 'The map could not be loaded' : failure.message}
          message={failure.retryable ? failure.message : undefined}
          onRetry={failure.retryable ? () => statusActor.send({ type: 'map.retry' }) : undefined}
        />
      )}
    </div>
  );
}

/** The theme a config that did not validate asks for, if it names one (its error panel shows in it). */
function requestedTheme(config: unknown): PinmapConfig['theme'] {
  const theme = typeof config === 'object' && config !== null ? (config as { theme?: unknown }).theme : undefined;
  return theme === 'light' || theme === 'dark' ? theme : 'auto';
}

/** What the pin notice says; a pin file that could not be loaded offers to load it again. */
type Notice = { text: string; retry?: () => void };

/**
 * The config with the camera a view switch carried over: centre and zoom exactly; bearing and
 * pitch as far as the new view allows (the hybrid view has neither).
 */
function withCarriedCamera(config: PinmapConfig, camera: Camera | undefined): PinmapConfig {
  if (!camera) return config;
  const flat = config.view === 'hybrid';
  const pitch = flat ? 0 : Math.min(Math.max(camera.pitch, config.minPitch), config.maxPitch);
  return { ...config, center: camera.center, zoom: camera.zoom, bearing: flat ? 0 : camera.bearing, pitch, openPin: undefined };
}

/** Keeps `?view=` in the page address (replaced, not pushed), so a reload shows the same view. */
function writeViewToAddress(view: ViewName): void {
  const url = new URL(window.location.href);
  url.searchParams.set('view', view);
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
}

function regionLabel(config: PinmapConfig): string {
  return config.locale['Pinmap.Region'] ?? DEFAULT_LOCALE['Pinmap.Region'];
}

const adapterKeys = new WeakMap<MapAdapter, number>();
let adapterCount = 0;

/** A key per map, so each new map gets fresh controls (and fresh machines). */
function adapterKey(adapter: MapAdapter): number {
  let key = adapterKeys.get(adapter);
  if (key === undefined) {
    key = ++adapterCount;
    adapterKeys.set(adapter, key);
  }
  return key;
}

/** A ref that always holds the latest value, so listeners registered once never go stale. */
function useLatest<T>(value: T) {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}

function rootClass(className: string | undefined): string {
  return className ? `pinmap ${className}` : 'pinmap';
}
