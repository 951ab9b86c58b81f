import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useContext, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref, type RefObject } from 'react';
import { mapStatusMachine, type MapStatus } from '../machines/map-status.machine.ts';
import type { Camera, ViewName } from '../config/address.ts';
import type { LngLatBounds, MapAdapter, MapLibreMap } from '../map/adapter.ts';
import { configKey, safeParseConfig, type ConfigError, type PinmapConfig, type PinmapConfigInput } from '../config/schema.ts';
import { createEngine } from '../map/engines.ts';
import type { PinReading, PinSet } from '../pins/types.ts';
import { startPinRequest, type PinRequest } from '../map/pin-request.ts';
import { accessTokenOf, redactToken, tokenRuleOf } from '../map/request-transform.ts';
import { formatBytes, reasonOf } from '../config/errors.ts';
import { DEFAULT_LOCALE, localeWith } from '../config/locale.ts';
import { Controls, type PinToOpen } from './controls/Controls.tsx';
import { ErrorPanel } from './ErrorPanel.tsx';
import { inspectOptions } from './inspect.ts';
import { PinNotice } from './PinNotice.tsx';
import { BasemapNote } from './BasemapNote.tsx';
import { useBasemapNote } from './hooks/use-basemap-note.ts';
import { PageNoticeContext } from './page-notice.ts';
import { useAddressSync, useHiddenAddressSync, useOpenPinAddressSync } from './hooks/use-address-sync.ts';
import { useTheme } from './hooks/use-theme.ts';
import { cameraOf, configCameraOf, showsViewState, viewStateOf, type ViewState } from './view-state.ts';
import { jumpToPins, pinSetBounds } from './fit-pins.ts';
import './pinmap.css';

/** Told the map's status (`loading`, `idle`, `error`) each time it changes; with the error's text when it fails. */
export type StatusListener = (status: MapStatus, error?: string) => void;

/**
 * What a `ref` on `<Pinmap/>` holds once the map exists (null before, and while a view switch
 * makes the next map): the camera, the popups and the MapLibre map itself.
 */
export interface PinmapRef {
  /** The camera now. */
  getViewState(): Required<ViewState>;
  /** Moves the camera at once to `viewState` (what it leaves out stays). */
  jumpTo(viewState: Partial<ViewState>): void;
  /**
   * Flies the camera to `viewState`, zooming out and in on the way. `duration` in ms; by default
   * MapLibre picks it from the distance, and it is 0 when the user prefers reduced motion.
   */
  flyTo(viewState: Partial<ViewState>, options?: { duration?: number }): void;
  /**
   * Fits `[[west, south], [east, north]]` (degrees) in the view, keeping the bearing. `maxZoom`
   * (default the map's `maxZoom`) caps the zoom; `duration` in ms as for `flyTo`.
   */
  fitBounds(bounds: LngLatBounds, options?: { maxZoom?: number; duration?: number }): void;
  /**
   * Opens the popup of the pin with this id (closing any other); false for an unknown id. With
   * pre-tiled pins, true while the pin is looked up in the archive (the popup opens when found).
   */
  openPin(id: string): boolean;
  /** Closes the open popup, if any. */
  closePin(): void;
  /**
   * The MapLibre map: the whole map in the vector view, the Leaflet map's vector layer in the
   * hybrid view; undefined where WebGL could not start. For what Pinmap does not wrap; a style
   * or camera changed behind Pinmap's back is not Pinmap's to keep.
   */
  getMap(): MapLibreMap | undefined;
}

/** What a pin event names: the pin's id. */
export interface PinEvent {
  /** The pin's id (its feature id or `properties.id`). */
  id: string;
}

/** The config keys that `<Pinmap/>` also takes as props of their own (a prop wins over the config's key). */
export type PinmapDataProps = Pick<PinmapConfigInput, 'pins' | 'pinStyles' | 'controls' | 'theme'>;

/** The props of `<Pinmap/>`: its config, the camera (uncontrolled or controlled), events as props and the ref. */
export interface PinmapProps extends PinmapDataProps {
  /**
   * The map's config (see the README's option table); validated here, with its errors shown in
   * place of the map. Changing `pins`, `pinStyles`, `searchFields`, `hiddenCategories`,
   * `controls`, `units`, `bearingSnap`, `trackUserLocation`, `fitToUserLocation` or `hash`
   * updates the map in place; `center`,
   * `zoom`, `bearing`, `pitch` and `openPin` are read when the map is made; any other change
   * makes a new map.
   */
  config?: PinmapConfigInput;
  /**
   * Uncontrolled camera: where the map starts (wins over the config's `center`, `zoom`, `bearing`,
   * `pitch`). Later changes are ignored: move the map through the ref, or control it with `viewState`.
   */
  initialViewState?: Partial<ViewState>;
  /**
   * Controlled camera: the map shows this view state, and tells every change with `onMove`. Keep it
   * in your state from `onMove`; a gesture that your state does not follow springs back when it ends.
   */
  viewState?: ViewState;
  /** Every camera change (gestures, controls, code), with the camera it reached. */
  onMove?: (event: { viewState: Required<ViewState> }) => void;
  /** The map's first idle: style, tiles and pins drawn. Told again for the next map after a view switch. */
  onLoad?: (event: { target: PinmapRef }) => void;
  /** The map failed (config errors, the style, WebGL), with the message it shows. */
  onError?: (event: { error: Error }) => void;
  /** The user clicked, tapped or pressed Enter or Space on a pin (its popup opens next). */
  onPinClick?: (event: PinEvent) => void;
  /** A pin's popup opened (by the user, the address' `?pin=` or the ref). */
  onPopupOpen?: (event: PinEvent) => void;
  /** A pin's popup closed. */
  onPopupClose?: (event: PinEvent) => void;
  /** Told every time the map's status changes; with the error's text when it fails. */
  onStatusChange?: StatusListener;
  /** Classes added to the map's root element (beside `pinmap`). */
  className?: string;
  /** The imperative handle (see `PinmapRef`). */
  ref?: Ref<PinmapRef>;
}

type PinmapEvents = Pick<PinmapProps, 'onMove' | 'onLoad' | 'onError' | 'onPinClick' | 'onPopupOpen' | 'onPopupClose' | 'onStatusChange'>;

/**
 * The Pinmap component: validates its config, then renders the map, its status as
 * `data-map-state`, and whatever error stops it. One map per mounted component: props that can be
 * set on a live map are, and only a change that needs a new map makes one.
 */
export function Pinmap({ config, pins, pinStyles, controls, theme, initialViewState, viewState, className, ref, ...events }: PinmapProps) {
  // Site owners write config inline; parsing keys on its content, not on object identity.
  const input = withProps(config, { pins, pinStyles, controls, theme }, viewState ?? initialViewState);
  const key = configKey(input);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const parsed = useMemo(() => safeParseConfig(input), [key]);
  const latestEvents = useLatest(events);

  if (!parsed.ok) return <ConfigErrorView error={parsed.error} theme={requestedTheme(input)} events={latestEvents} className={className} />;
  // The camera opens on the pins only where nothing else says where it opens.
  const fitPins = parsed.config.fitPins && !givesCamera(input);
  return <PinmapView config={parsed.config} fitPins={fitPins} viewState={viewState} events={latestEvents} className={className} handleRef={ref} />;
}

type EventsRef = RefObject<PinmapEvents>;

function ConfigErrorView({ error, theme: requested, events, className }: { error: ConfigError; theme: PinmapConfig['theme']; events: EventsRef; className?: string | undefined }) {
  const theme = useTheme(requested);
  // StrictMode runs this effect twice for one mount: the error is told once.
  const told = useRef<ConfigError>(undefined);
  useEffect(() => {
    if (told.current === error) return;
    told.current = error;
    events.current.onStatusChange?.('error', error.message);
    events.current.onError?.({ error });
  }, [error, events]);
  return (
    <div className={rootClass(className)} data-map-state="error" data-theme={theme}>
      <ErrorPanel title="This map's configuration has errors" problems={error.problems} />
    </div>
  );
}

interface ViewProps {
  config: PinmapConfig;
  /** Whether the first pins placed open the camera on them. */
  fitPins: boolean;
  viewState: ViewState | undefined;
  events: EventsRef;
  className: string | undefined;
  handleRef: Ref<PinmapRef> | undefined;
}

function PinmapView({ config, fitPins, viewState, events, className, handleRef }: ViewProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const [adapter, setAdapter] = useState<MapAdapter>();
  const [pinNotice, setNotice] = useState<Notice>();
  const [engineNotice, setEngineNotice] = useState<string>();
  const pageNotice = useContext(PageNoticeContext);
  const [dismissedPageNotice, setDismissedPageNotice] = useState<string>();
  const shownPageNotice = pageNotice !== dismissedPageNotice ? pageNotice : undefined;
  const [pinToOpen, setPinToOpen] = useState<PinToOpen>();
  const statusActor = useActorRef(mapStatusMachine, inspectOptions());
  const status = useSelector(statusActor, (s) => s.value as MapStatus);
  const failure = useSelector(statusActor, (s) => s.context.failure);

  // What makes a map: the config less what is set on a live map (and the initial camera, which
  // only a new map reads). A change of anything else keeps the map.
  const mapKey = configKey(omitKeys(config, [...LIVE_KEYS, ...INITIAL_KEYS]));
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const mapConfig = useMemo(() => config, [mapKey]);
  const latestConfig = useLatest(config);

  // The view shown: the config's, until the view switch picks the other. A new map config starts over.
  const [chosen, setChosen] = useState<{ for: PinmapConfig; view: ViewName }>({ for: mapConfig, view: mapConfig.view });
  const view = chosen.for === mapConfig ? chosen.view : mapConfig.view;
  // The config and view of the map the status is of. Until the effect below has made the map of
  // this config and view (after a view switch, say), the root says the map is loading rather than
  // what the old one was: React runs the effect after the render that changes them (a task later
  // for an update from outside a user event, such as `update()`), and until then the root would
  // show the old map's 'idle' beside the new view.
  const [statusFor, setStatusFor] = useState<{ config: PinmapConfig; view: ViewName } | undefined>(undefined);
  const shownStatus: MapStatus = statusFor?.config === mapConfig && statusFor.view === view ? status : 'loading';
  // The theme shown (config `theme`, `auto` following the system live). A new map starts in the
  // theme shown now; a change later reaches the map through `setTheme`, without making it again.
  const theme = useTheme(config.theme);
  const shownTheme = useLatest(theme);
  // What a view switch carries to the next map: the camera and the open popup.
  const carried = useRef<{ camera: Camera; openPin: string | null }>(undefined);
  const openPin = useRef<string | null>(null);
  // The pin whose popup opens once the next map's pins are placed: the carried one, else `openPin`.
  const pinForNextMap = useRef<{ id: string; fly: boolean } | undefined>(undefined);
  // The legend's hidden categories: the config's, until the legend changes them; kept across views.
  const hiddenKey = configKey(config.hiddenCategories);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const configHidden = useMemo(() => config.hiddenCategories, [hiddenKey]);
  const [hiding, setHiding] = useState<{ for: string[]; categories: string[] }>({ for: configHidden, categories: configHidden });
  const hidden = hiding.for === configHidden ? hiding.categories : configHidden;
  const hiddenNow = useLatest(hidden);
  const changeHidden = useCallback((categories: string[]) => setHiding({ for: configHidden, categories }), [configHidden]);
  // The first pins placed open the camera on them (`fitPins`), unless the user moved it first.
  const fitOnPlace = useRef(fitPins);
  // The pins on the map, for the pin list's "Show all pins".
  const [placedSet, setPlacedSet] = useState<PinSet>();
  const pinsBox = useCallback(() => (placedSet ? pinSetBounds(placedSet, hiddenNow.current) : undefined), [placedSet, hiddenNow]);

  const hash = config.hash;
  const switchView = useCallback(
    (next: ViewName) => {
      if (adapter) carried.current = { camera: adapter.getCamera(), openPin: openPin.current };
      setChosen({ for: mapConfig, view: next });
      if (hash) writeViewToAddress(next);
    },
    [adapter, mapConfig, hash],
  );

  // One map per mounted component, map config and view. Under StrictMode React mounts, unmounts
  // and mounts again: the first map is removed (with its WebGL context) before the second is made,
  // so exactly one map, one context and one set of controls remain.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let live = true; // a removed map's late events must not move the next one's status
    const handoff = carried.current;
    carried.current = undefined;
    // The camera a new map starts from: the carried one, else the latest config's (and so the
    // controlled view state's).
    const { center, zoom, bearing, pitch, openPin: initialPin } = latestConfig.current;
    const engineConfig = withCarriedCamera({ ...mapConfig, center, zoom, bearing, pitch, view, theme: shownTheme.current }, handoff?.camera);
    const handoffPin = handoff ? (handoff.openPin ?? undefined) : initialPin;
    pinForNextMap.current = handoffPin === undefined ? undefined : { id: handoffPin, fly: !handoff };
    statusActor.send({ type: 'map.created' });
    setStatusFor({ config: mapConfig, view });
    setEngineNotice(undefined);
    let engine: MapAdapter | undefined;
    let stopWatching: (() => void) | undefined;
    let retry: { unsubscribe: () => void } | undefined;

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
        const stopPinEvents = watchPins(made, openPin, events);
        // A gesture before the pins come: the user has chosen where to look.
        const stopFitWatch = made.onMotion((event) => {
          if (event.type === 'user.gesture') fitOnPlace.current = false;
        });
        stopWatching = () => {
          stopPinEvents();
          stopFitWatch();
        };
        // Before the pins come, so a large set is grouped once, without the hidden categories.
        made.setHiddenCategories(hiddenNow.current);
        setAdapter(made);
      },
      (error: unknown) => {
        // The hybrid view's code could not be fetched (the network went away, a deploy replaced it).
        if (live) statusActor.send({ type: 'map.failed', failure: { message: `The ${view} view could not be loaded: ${reasonOf(error)}`, retryable: false } });
      },
    );

    return () => {
      live = false;
      retry?.unsubscribe();
      stopWatching?.();
      openPin.current = null;
      setAdapter(undefined);
      setPinToOpen(undefined);
      engine?.destroy();
    };
  }, [mapConfig, view, statusActor, latestConfig, events, hiddenNow, shownTheme]);

  // The pins: fetched and checked as soon as they are known, beside the map's own start, and
  // placed on each map made. New pins or pin styles replace them on the live map. A large file
  // shows how far it has come.
  const [progress, setProgress] = useState<{ for: PinSource; text: string }>();
  const pinSource = usePinSource(config, setProgress);
  const locale = localeWith(config.locale);
  const progressText = progress && progress.for === pinSource ? progressLabel(progress.text, locale) : undefined;
  // Every text the page shows or logs has the token blanked, in every spelling.
  const token = accessTokenOf(config);
  const redact = (text: string) => redactToken(text, token);
  const pinsPlacedOn = useRef<MapAdapter | undefined>(undefined);
  // What is said about pins that are no longer the map's is no longer said.
  const notice = pinNotice?.for === pinSource ? pinNotice : undefined;
  useEffect(() => {
    if (!adapter) return;
    let live = true;
    if (!pinSource) {
      // Pins taken away: the map shows none.
      if (pinsPlacedOn.current === adapter) void adapter.setPins(Promise.resolve(EMPTY_PIN_SET));
      pinsPlacedOn.current = undefined;
      return;
    }
    pinsPlacedOn.current = adapter;
    const place = (pins: Promise<PinSet>) => {
      setNotice(undefined);
      // What was skipped is said before the map is given the pins, so that what it says after
      // (a `?pin=` it does not have) is not replaced.
      const described = pins.then(async (set) => ({ set, report: (await loadPinCode()).describePinSet(set) }));
      described.then(
        ({ report }) => {
          setProgress(undefined);
          if (!live) return;
          if (report.console.length > 0) console.warn(`Pinmap: ${report.console.join('\n')}`);
          setNotice(report.notice === undefined ? undefined : { text: report.notice, for: pinSource });
        },
        (error: unknown) => {
          setProgress(undefined);
          if (!live) return;
          console.error(`Pinmap: ${redactToken(reasonOf(error), accessTokenOf(pinSource.config))}`);
          // The basemap stays; the pins can be asked for again.
          setNotice({
            text: reasonOf(error),
            for: pinSource,
            retry: () => {
              if (live) place(pinSource.reload());
            },
          });
        },
      );
      return adapter.setPins(
        described.then(({ set }) => {
          if (!live) return set;
          setPlacedSet(set);
          const box = fitOnPlace.current ? pinSetBounds(set, hiddenNow.current) : undefined;
          // Before the pins are drawn: the map is not idle until they are, so its first idle is on them.
          if (box && containerRef.current) {
            fitOnPlace.current = false;
            jumpToPins(adapter, box, latestConfig.current.maxZoom, containerRef.current);
          }
          return set;
        }),
      );
    };
    const placed = place(pinSource.latest());
    // A popup open in the other view opens again here, where the camera is; else `?pin=`'s.
    const next = pinForNextMap.current;
    pinForNextMap.current = undefined;
    if (next) {
      setPinToOpen({
        id: next.id,
        placed,
        fly: next.fly,
        onMissing: () => {
          if (!live) return;
          console.warn(`Pinmap: there is no pin with the id "${next.id}" to open.`);
          setNotice({ text: `There is no pin "${next.id}" on this map.`, for: pinSource });
        },
      });
    }
    return () => {
      live = false;
    };
  }, [adapter, pinSource, hiddenNow, latestConfig]);

  useEffect(() => {
    adapter?.setTheme(theme);
  }, [adapter, theme]);

  useAddressSync(adapter, config.hash);
  useOpenPinAddressSync(adapter, config.hash);
  useHiddenAddressSync(hidden, config.hash);
  useEffect(() => adapter?.setHiddenCategories(hidden), [adapter, hidden]);
  useControlledCamera(adapter, viewState, events);
  useImperativeHandle<PinmapRef | null, PinmapRef | null>(handleRef, () => (adapter ? pinmapRefOf(adapter, latestConfig) : null), [adapter, latestConfig]);

  const toldFailure = useRef<typeof failure>(undefined);
  useEffect(() => {
    events.current.onStatusChange?.(status, failure?.message);
    if (status !== 'error' || !failure || toldFailure.current === failure) return;
    toldFailure.current = failure; // once, under StrictMode too
    events.current.onError?.({ error: new Error(failure.message) });
  }, [status, failure, events]);
  // The first idle of each map is its load.
  const loaded = useRef<MapAdapter | undefined>(undefined);
  useEffect(() => {
    if (status !== 'idle' || !adapter || loaded.current === adapter) return;
    loaded.current = adapter;
    events.current.onLoad?.({ target: pinmapRefOf(adapter, latestConfig) });
  }, [status, adapter, events, latestConfig]);

  const basemapNote = useBasemapNote(adapter, config.style === undefined && status !== 'error', status === 'idle');

  const dismissLabel = locale['PinLayer.Dismiss'];
  return (
    // A landmark of its own, so the controls around the map's canvas are inside one for screen readers.
    <div className={rootClass(className)} ref={rootRef} role="region" aria-label={regionLabel(config)} data-map-state={shownStatus} data-view={view} data-theme={theme}>
      <div className="pinmap-map" ref={containerRef} />
      {(engineNotice || notice || progressText || shownPageNotice || basemapNote.state !== 'hidden') && (
        <div className="pinmap-notices">
          {shownPageNotice && <PinNotice text={shownPageNotice} dismissLabel={dismissLabel} onDismiss={() => setDismissedPageNotice(shownPageNotice)} />}
          {progressText && (
            <p className="pinmap-notice pinmap-progress" role="status">
              {progressText}
            </p>
          )}
          {engineNotice && <PinNotice text={redact(engineNotice)} dismissLabel={dismissLabel} onDismiss={() => setEngineNotice(undefined)} alert />}
          {notice && (
            <PinNotice
              text={redact(notice.text)}
              dismissLabel={dismissLabel}
              onDismiss={() => setNotice(undefined)}
              alert={notice.retry !== undefined}
              {...(notice.retry ? { retryLabel: locale['PinLayer.Retry'], onRetry: notice.retry } : {})}
            />
          )}
          {basemapNote.state !== 'hidden' && (
            <BasemapNote text={locale['Basemap.NoStreets']} dismissLabel={dismissLabel} fading={basemapNote.state === 'fading'} onDone={basemapNote.hide} />
          )}
        </div>
      )}
      {adapter && status !== 'error' && (
        <Controls
          key={adapterKey(adapter)}
          adapter={adapter}
          config={config}
          root={rootRef}
          pinToOpen={pinToOpen}
          onSwitchView={switchView}
          hidden={hidden}
          onHiddenChange={changeHidden}
          pinsBox={pinsBox}
          pinProgress={progressText}
        />
      )}
      {failure && (
        <ErrorPanel
          title={failure.retryable ? 'The map could not be loaded' : redact(failure.message)}
          message={failure.retryable ? redact(failure.message) : undefined}
          onRetry={failure.retryable ? () => statusActor.send({ type: 'map.retry' }) : undefined}
        />
      )}
    </div>
  );
}

/** Config keys that a live map takes without being made again. */
const LIVE_KEYS = ['pins', 'pinStyles', 'searchFields', 'popupFields', 'csv', 'fitPins', 'hiddenCategories', 'theme', 'controls', 'units', 'bearingSnap', 'trackUserLocation', 'fitToUserLocation', 'hash'] as const;
/** Config keys that only a new map reads: its first camera and popup. */
const INITIAL_KEYS = ['center', 'zoom', 'bearing', 'pitch', 'openPin'] as const;

/** No pins: what a map is given when its pins are taken away. */
const EMPTY_PIN_SET: PinSet = { pins: [], skipped: [], warnings: [], pinStyles: {} };

/**
 * The code that reads and checks pins: a chunk of its own, loaded when a config first has pins
 * (beside the map's own start), so a map without pins never loads it.
 */
const loadPinCode = () => import('../map/pin-source.ts');

/** Whether a config (with its props) gives the camera: a `center` or a `zoom` (the app's from `#map=`). */
function givesCamera(input: unknown): boolean {
  if (typeof input !== 'object' || input === null) return false;
  const { center, zoom } = input as { center?: unknown; zoom?: unknown };
  return center !== undefined || zoom !== undefined;
}

/** The config with the props that stand for its keys on top, and the camera of the view state. */
function withProps(config: PinmapConfigInput | undefined, props: PinmapDataProps, view: Partial<ViewState> | undefined): unknown {
  const given = Object.entries(props).filter(([, value]) => value !== undefined);
  const camera = configCameraOf(view);
  if (given.length === 0 && Object.keys(camera).length === 0) return config;
  // A config that is not an object is the config's error to report, as it is.
  if (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config))) return config;
  return { ...config, ...Object.fromEntries(given), ...camera };
}

function omitKeys(config: PinmapConfig, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const key of keys) delete out[key];
  return out;
}

/**
 * The config's pins as something to place on each map: read (fetched and checked) from the
 * moment the pins, the pin styles or how they are fetched change, beside the map's own start, and
 * read again on a Retry. `onProgress` hears how far a large file has come (a text, from
 * `progressOf`). Undefined without pins.
 */
function usePinSource(config: PinmapConfig, onProgress: (progress: { for: PinSource; text: string } | undefined) => void): PinSource | undefined {
  const key = useMemo(
    () =>
      configKey([config.pins, config.pinStyles, config.searchFields, config.popupFields, config.csv, config.pinsTimeout, config.maxPinBytes, tokenRuleOf(config, document.baseURI)]),
    [config],
  );
  const tellProgress = useLatest(onProgress);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const source = useMemo(() => (config.pins === undefined ? undefined : new PinSource(config, (text) => tellProgress.current(text === undefined ? undefined : { for: source!, text }))), [key]);
  useEffect(() => {
    if (!source) return;
    source.start();
    return () => source.stop();
  }, [source]);
  return source;
}

/** Pins being read: the latest reading, and a new one (a Retry after a failure). */
class PinSource {
  private request = new AbortController();
  private reading: Promise<PinSet> | undefined;

  constructor(
    /** The config the pins are of: its pins, pin styles, the fields to keep, CSV columns, token rule and limits. */
    readonly config: PinmapConfig,
    private readonly onProgress: (text: string | undefined) => void,
  ) {}

  /** Starts reading the pins (again, after `stop`). */
  start(): void {
    this.request = new AbortController();
    this.reading = undefined;
    this.latest();
  }

  /** Stops a reading under way: its request is aborted. */
  stop(): void {
    this.request.abort();
  }

  /** The pins as last read. */
  latest(): Promise<PinSet> {
    return (this.reading ??= this.read());
  }

  /** Reads the pins again. */
  reload(): Promise<PinSet> {
    return (this.reading = this.read());
  }

  private read(): Promise<PinSet> {
    const { signal } = this.request;
    const { pins, pinStyles, searchFields, popupFields, csv } = this.config;
    const reading: PinReading = { searchFields, popupFields, csv };
    let shown: string | undefined;
    const request: PinRequest = {
      rule: tokenRuleOf(this.config, document.baseURI),
      timeout: this.config.pinsTimeout,
      maxBytes: this.config.maxPinBytes,
      onProgress: (loaded, total) => {
        const text = progressOf(loaded, total);
        if (text === shown || signal.aborted) return;
        shown = text;
        this.onProgress(text);
      },
    };
    const started = startPinRequest(pins, document.baseURI, signal, request);
    const read = loadPinCode().then(({ loadPinSet }) => loadPinSet(pins!, pinStyles, document.baseURI, signal, reading, started, request));
    read.catch(() => {}); // heard where the pins are placed; a map that could not be made needs no pins
    return read;
  }
}

/** Files smaller than this arrive without a word of progress. */
const PROGRESS_FROM_BYTES = 1_000_000;

/**
 * How far a pin file has come, in steps a screen reader can follow: `40` (per cent, in tens) when
 * its size is known, else the size read so far (`12 MB`, in whole megabytes); undefined while it
 * is small.
 */
function progressOf(loaded: number, total: number | undefined): string | undefined {
  if (total !== undefined && total >= loaded) return total < PROGRESS_FROM_BYTES ? undefined : `${Math.floor((loaded / total) * 10) * 10}`;
  return loaded < PROGRESS_FROM_BYTES ? undefined : formatBytes(Math.floor(loaded / 1e6) * 1e6);
}

/** The progress as the page says it: "Loading pins… 40 %", or "Loading pins… 12 MB". */
function progressLabel(progress: string, locale: ReturnType<typeof localeWith>): string {
  return /^\d+$/.test(progress) ? locale['PinLayer.Loading'].replace('{percent}', progress) : locale['PinLayer.LoadingSize'].replace('{size}', progress);
}

/** Keeps `openPin` as the open popup's id, and tells the pin events. Returns the unsubscribe. */
function watchPins(adapter: MapAdapter, openPin: { current: string | null }, events: EventsRef): () => void {
  const stopOpen = adapter.onOpenPinChange((id) => {
    const previous = openPin.current;
    openPin.current = id;
    if (previous !== null && previous !== id) events.current.onPopupClose?.({ id: previous });
    if (id !== null && id !== previous) events.current.onPopupOpen?.({ id });
  });
  const stopClick = adapter.onPinClick((id) => events.current.onPinClick?.({ id }));
  return () => {
    stopOpen();
    stopClick();
  };
}

/**
 * The controlled camera: the map jumps to `viewState` whenever it changes, except while the
 * camera moves (a gesture or an animation is not fought); every change is told with `onMove`;
 * when a movement ends somewhere the view state did not follow, the map goes back to it.
 */
function useControlledCamera(adapter: MapAdapter | undefined, viewState: ViewState | undefined, events: EventsRef): void {
  const wanted = useLatest(viewState);
  const moving = useRef(false);
  const { longitude, latitude, zoom, bearing, pitch } = viewState ?? {};
  useEffect(() => {
    if (!adapter) return;
    let frame = 0;
    const follow = () => {
      frame = 0;
      const target = wanted.current;
      if (target && !moving.current && !showsViewState(adapter.getCamera(), target)) adapter.jumpTo(cameraOf(target, adapter.getCamera()));
    };
    const stopCamera = adapter.onCameraChange((camera) => events.current.onMove?.({ viewState: viewStateOf(camera) }));
    const stopMotion = adapter.onMotion((event) => {
      if (event.type === 'motion.started') moving.current = true;
      if (event.type !== 'motion.ended') return;
      moving.current = false;
      // The state the move was told to has rendered by the next frame; whatever it did not take, goes back.
      if (wanted.current && !frame) frame = requestAnimationFrame(follow);
    });
    return () => {
      stopCamera();
      stopMotion();
      if (frame) cancelAnimationFrame(frame);
      moving.current = false;
    };
  }, [adapter, wanted, events]);
  useEffect(() => {
    if (!adapter || longitude === undefined || latitude === undefined || zoom === undefined || moving.current) return;
    const target = { longitude, latitude, zoom, bearing, pitch };
    if (!showsViewState(adapter.getCamera(), target)) adapter.jumpTo(cameraOf(target, adapter.getCamera()));
  }, [adapter, longitude, latitude, zoom, bearing, pitch]);
}

/** The imperative handle of one map. */
function pinmapRefOf(adapter: MapAdapter, config: { current: PinmapConfig }): PinmapRef {
  const duration = (options: { duration?: number } | undefined) => (prefersReducedMotion() ? 0 : options?.duration);
  return {
    getViewState: () => viewStateOf(adapter.getCamera()),
    jumpTo: (view) => adapter.jumpTo(cameraOf(view, adapter.getCamera())),
    flyTo: (view, options) => adapter.flyTo(cameraOf(view, adapter.getCamera()), withDuration({ tag: 'ref.flyTo' }, duration(options))),
    fitBounds: (bounds, options) =>
      adapter.fitBounds(bounds, withDuration({ tag: 'ref.fitBounds', maxZoom: options?.maxZoom ?? config.current.maxZoom }, duration(options) ?? FIT_DURATION)),
    openPin: (id) => adapter.openPin(id),
    closePin: () => adapter.closePin(),
    getMap: () => adapter.getMap(),
  };
}

/** How long `fitBounds` eases when not told (MapLibre's own default for camera animations). */
const FIT_DURATION = 500;

function withDuration<T extends object>(options: T, duration: number | undefined): T & { duration?: number } {
  return duration === undefined ? options : { ...options, duration };
}

function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * What the pin notice says, of which pins; a pin file that could not be loaded offers to load it
 * again.
 */
type Notice = { text: string; for: PinSource | undefined; retry?: () => void };
/** The theme a config that did not validate asks for, if it names one (its error panel shows in it). */
function requestedTheme(config: unknown): PinmapConfig['theme'] {
  const theme = typeof config === 'object' && config !== null ? (config as { theme?: unknown }).theme : undefined;
  return theme === 'light' || theme === 'dark' ? theme : 'auto';
}


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
