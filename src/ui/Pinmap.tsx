import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useContext, useEffect, useImperativeHandle, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties, type MouseEvent, type Ref } from 'react';
import { createPortal } from 'react-dom';
import { mapStatusMachine, type MapStatus } from '../machines/map-status.machine.ts';
import type { Camera, ViewName } from '../config/address.ts';
import type { MapAdapter, PopupContent } from '../map/adapter.ts';
import { configKey, safeParseConfig, showsEmbeddedBasemap, type ConfigError, type PinmapConfig, type PinmapConfigInput } from '../config/schema.ts';
import { createEngine } from '../map/engines.ts';
import { refreshPins } from '../map/pin-refresh.ts';
import type { Pin, PinSet } from '../pins/types.ts';
import type { PinSetReport } from '../pins/data.ts';
import { accessTokenOf, redactToken, tokenRuleOf } from '../map/request-transform.ts';
import { reasonOf } from '../config/errors.ts';
import { DEFAULT_LOCALE, localeWith } from '../config/locale.ts';
import { Controls, type PinToOpen } from './controls/Controls.tsx';
import { ErrorPanel } from './ErrorPanel.tsx';
import { inspectOptions } from './inspect.ts';
import { PinNotice } from './PinNotice.tsx';
import { BasemapNote, pinFileName } from './BasemapNote.tsx';
import { useBasemapNote, useNoteStrip } from './hooks/use-basemap-note.ts';
import { PageNoticeContext } from './page-notice.ts';
import { useAddressSync, useHiddenAddressSync, useOpenPinAddressSync } from './hooks/use-address-sync.ts';
import { useTheme } from './hooks/use-theme.ts';
import { configCameraOf, type ViewState } from './view-state.ts';
import type { EventsRef, PinmapProps, PinmapRef, PinmapDataProps } from './pinmap-api.ts';
import { pinmapPinOf } from './popup-pin.ts';
import { loadPinCode, progressLabel, usePinSource, type PinSource } from './hooks/use-pin-source.ts';
import { useControlledCamera } from './hooks/use-controlled-camera.ts';
import { useLatest } from './hooks/use-latest.ts';
import { useAppPins } from './hooks/use-app-pins.ts';
import { pinmapRefOf, updatePinsById } from './pinmap-ref.ts';
import { jumpToPins, pinSetBounds } from './fit-pins.ts';
import './pinmap.css';

/**
 * The Pinmap component: validates its config, then renders the map, its status as
 * `data-map-state`, and whatever error stops it. One map per mounted component: props that can be
 * set on a live map are, and only a change that needs a new map makes one.
 */
export function Pinmap({ config, pins, pinStyles, controls, theme, initialViewState, viewState, className, style, ref, renderPopup, selectedPinId, highlightedPins, renderPin, ...events }: PinmapProps) {
  // Site owners write config inline; parsing keys on its content, not on object identity.
  const input = withProps(config, { pins, pinStyles, controls, theme }, viewState ?? initialViewState);
  const key = configKey(input);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const parsed = useMemo(() => safeParseConfig(input), [key]);
  const latestEvents = useLatest(events);

  if (!parsed.ok) return <ConfigErrorView error={parsed.error} theme={requestedTheme(input)} events={latestEvents} className={className} style={style} />;
  // The camera opens on the pins only where nothing else says where it opens.
  const fitPins = parsed.config.fitPins && !givesCamera(input);
  return <PinmapView config={parsed.config} fitPins={fitPins} viewState={viewState} events={latestEvents} className={className} style={style} handleRef={ref} renderPopup={renderPopup} selectedPinId={selectedPinId} highlightedPins={highlightedPins} renderPin={renderPin} />;
}

function ConfigErrorView({ error, theme: requested, events, className, style }: { error: ConfigError; theme: PinmapConfig['theme']; events: EventsRef; className?: string | undefined; style?: CSSProperties | undefined }) {
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
    <div className={rootClass(className)} style={style} data-map-state="error" data-theme={theme}>
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
  style: CSSProperties | undefined;
  handleRef: Ref<PinmapRef> | undefined;
  renderPopup: PinmapProps['renderPopup'];
  selectedPinId: PinmapProps['selectedPinId'];
  highlightedPins: PinmapProps['highlightedPins'];
  renderPin: PinmapProps['renderPin'];
}

function PinmapView({ config, fitPins, viewState, events, className, style, handleRef, renderPopup, selectedPinId, highlightedPins, renderPin }: ViewProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const [adapter, setAdapter] = useState<MapAdapter>();
  const [pinNotice, setNotice] = useState<Notice>();
  const [engineNotice, setEngineNotice] = useState<string>();
  const pageNotice = useContext(PageNoticeContext);
  const [dismissedPageNotice, setDismissedPageNotice] = useState<string>();
  const shownPageNotice = pageNotice !== dismissedPageNotice ? pageNotice : undefined;
  const [pinToOpen, setPinToOpen] = useState<PinToOpen>();
  // The selection: the pin whose popup is open, as the map tells it (`onOpenPinChange`). What
  // renders the popup's content, the controlled `selectedPinId` and `onSelect` read it.
  const [selected, setSelected] = useState<string | null>(null);
  // An app's popup content: the element the open popup holds, and its pin, which `AppPopup` renders into.
  const popupTargets = useMemo(() => new PopupTargets(), []);
  const customPopup = renderPopup !== undefined;
  const popupContent = useMemo(() => (customPopup ? appPopupContent((target) => popupTargets.set(target)) : undefined), [customPopup, popupTargets]);
  const latestPopupContent = useLatest(popupContent);
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
        made.setPopupContent(latestPopupContent.current);
        const stopPinEvents = watchPins(made, openPin, events, (id) => {
          popupTargets.opened(id);
          setSelected(id);
        });
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
      setSelected(null);
      popupTargets.set(undefined);
      setAdapter(undefined);
      setPinToOpen(undefined);
      engine?.destroy();
    };
  }, [mapConfig, view, statusActor, latestConfig, events, hiddenNow, shownTheme, latestPopupContent, popupTargets]);

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
  /** The pins as a pin stream left them, for the pins read by `for`: a map made anew (a view switch) shows these. */
  const streamed = useRef<{ for: PinSource; pins: readonly Pin[] } | undefined>(undefined);
  const latestPinSource = useLatest(pinSource);
  /** When the latest pins are on the map, for a pin asked for later (`selectedPinId`). */
  const pinsPlaced = useRef<Promise<void>>(Promise.resolve());
  /** The last pin asked to open on a map, so that one pin is not asked for twice (`?pin=` and `selectedPinId`). */
  const requested = useRef<{ adapter: MapAdapter; id: string } | undefined>(undefined);
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
    // New pins for a map that shows pins already: an update by id (README, "Pins that move"),
    // which keeps the camera, the open popup, the focus and the WebGL context.
    const inPlace = pinsPlacedOn.current === adapter;
    pinsPlacedOn.current = adapter;
    let stopDamage = () => {};
    const place = (pins: Promise<PinSet>, byId = false) => {
      setNotice(undefined);
      stopDamage();
      // A pre-tiled archive's section found damaged when read (a pin, the search, a bubble's
      // pins) is a notice naming it; the rest of the map goes on.
      void pins.then((set) => {
        if (live && set.archive) stopDamage = set.archive.onDamage((text) => live && setNotice({ text, for: pinSource }));
      }, () => {});
      // What was skipped is said before the map is given the pins, so that what it says after
      // (a `?pin=` it does not have) is not replaced.
      const described = pins.then(async (set) => {
        const code = await loadPinCode();
        const report = code.describePinSet(set);
        // Features without an id were skipped: an update says that such pins cannot be updated.
        const notice = byId ? (code.updateNotice(report.notice, set.skipped) ?? report.notice) : report.notice;
        const told: PinSetReport = notice === undefined ? { console: report.console } : { console: report.console, notice };
        return { set, report: told };
      });
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
      const shown = described.then(({ set }) => {
          if (!live) return set;
          setPlacedSet(set);
          const box = fitOnPlace.current ? pinSetBounds(set, hiddenNow.current) : undefined;
          // Before the pins are drawn: the map is not idle until they are, so its first idle is on them.
          if (box && containerRef.current) {
            fitOnPlace.current = false;
            jumpToPins(adapter, box, latestConfig.current.maxZoom, containerRef.current);
          }
          return set;
        });
      return byId ? adapter.updatePins(shown) : adapter.setPins(shown);
    };
    // A map made anew (a view switch) takes the pins as a stream left them, not as first read.
    const streamedNow = streamed.current?.for === pinSource ? streamed.current.pins : undefined;
    const placed = place(streamedNow ? pinSource.latest().then((set): PinSet => ({ ...set, pins: [...streamedNow], skipped: [] })) : pinSource.latest(), inPlace);
    pinsPlaced.current = placed;
    // `pinsRefresh`: the file read again every N seconds, N seconds after the last reading ended
    // (`refreshPins`); a new file is applied by id as a new `pins` value is, a 304 changes nothing,
    // and a failure is a notice (the pins shown stay) that the next reading that succeeds clears.
    const refreshing = new AbortController();
    const every = pinSource.config.pinsRefresh;
    if (every !== undefined) {
      const read = () =>
        pinSource.refresh().then(
          (set) => {
            if (!live) return;
            if (set === 'same') setNotice((shown) => (shown?.refreshFailure ? undefined : shown));
            else {
              // The file wins over what a stream changed since.
              streamed.current = undefined;
              pinsPlaced.current = place(Promise.resolve(set), true);
            }
          },
          (error: unknown) => {
            if (!live) return;
            console.error(`Pinmap: ${redactToken(reasonOf(error), accessTokenOf(pinSource.config))}`);
            setNotice({ text: `${reasonOf(error)}. The pins shown are from the last reading; it is tried again in ${every} s.`, for: pinSource, refreshFailure: true });
          },
        );
      void placed.catch(() => {}).then(() => refreshPins({ every, signal: refreshing.signal, read }));
    }
    // A popup open in the other view opens again here, where the camera is; else `?pin=`'s.
    const next = pinForNextMap.current;
    pinForNextMap.current = undefined;
    if (next) {
      requested.current = { adapter, id: next.id };
      setPinToOpen({
        id: next.id,
        placed,
        fly: next.fly,
        onMissing: () => {
          if (!live) return;
          console.warn(`Pinmap: there is no pin with the id "${next.id}" to open.`);
          setNotice({ text: `There is no pin "${next.id}" on this map.`, for: pinSource });
        },
        onUnreadable: (error) => {
          if (!live) return;
          // The notice naming the damaged section is up already (`onDamage` above), not "no pin".
          console.error(`Pinmap: pin "${next.id}" cannot be opened: ${redactToken(reasonOf(error), accessTokenOf(pinSource.config))}`);
        },
      });
    }
    return () => {
      live = false;
      stopDamage();
      refreshing.abort();
    };
  }, [adapter, pinSource, hiddenNow, latestConfig]);

  // `pinsStream`: server-sent events of pin changes, applied by id once the pins are placed
  // (README, "Pins that move"); stopped when the map goes or the option changes.
  const [streamNotice, setStreamNotice] = useState<string>();
  const streamUrl = config.pinsStream;
  const streamKey = configKey([streamUrl, config.pinsTimeout, config.maxPinBytes, tokenRuleOf(config, typeof document === 'undefined' ? 'http://localhost/' : document.baseURI)]);
  useEffect(() => {
    if (!adapter || streamUrl === undefined) return;
    const stop = new AbortController();
    const streamConfig = latestConfig.current;
    const url = new URL(streamUrl, document.baseURI).href;
    void pinsPlaced.current
      .catch(() => {})
      .then(() => import('../map/pin-stream.ts'))
      .then(({ readPinStream }) => {
        if (stop.signal.aborted) return;
        return readPinStream({
          url,
          rule: tokenRuleOf(streamConfig, document.baseURI),
          timeout: streamConfig.pinsTimeout,
          maxEventSize: streamConfig.maxPinBytes,
          signal: stop.signal,
          onChanges: async (changes) => {
            const said: string[] = [];
            await updatePinsById(adapter, latestConfig.current, changes, (problems) => said.push(...problems)).catch((error: unknown) => said.push(reasonOf(error)));
            const source = latestPinSource.current;
            if (source) streamed.current = { for: source, pins: adapter.getPins() };
            return said;
          },
          onNotice: (text) => {
            if (!stop.signal.aborted) setStreamNotice(text);
          },
        });
      })
      .catch((error: unknown) => {
        if (!stop.signal.aborted) setStreamNotice(`The pin stream ${url} could not be read: ${reasonOf(error)}`);
      });
    return () => {
      stop.abort();
      setStreamNotice(undefined);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [adapter, streamKey, latestConfig, latestPinSource]);

  useEffect(() => {
    adapter?.setTheme(theme);
  }, [adapter, theme]);

  useEffect(() => adapter?.setPopupContent(popupContent), [adapter, popupContent]);

  // Controlled selection: a new `selectedPinId` flies to its pin and opens it (null closes it),
  // the path `?pin=` and the panels take; what the user picks on the map is told by `onSelect`.
  useEffect(() => {
    if (!adapter || selectedPinId === undefined || selectedPinId === openPin.current) return;
    if (selectedPinId === null) {
      requested.current = undefined;
      adapter.closePin();
      return;
    }
    if (requested.current?.adapter === adapter && requested.current.id === selectedPinId) return;
    requested.current = { adapter, id: selectedPinId };
    const id = selectedPinId;
    setPinToOpen({
      id,
      placed: pinsPlaced.current,
      onMissing: () => console.warn(`Pinmap: there is no pin with the id "${id}" to select.`),
      onUnreadable: (error) => console.error(`Pinmap: pin "${id}" cannot be selected: ${reasonOf(error)}`),
    });
  }, [adapter, selectedPinId]);
  // Once the map has closed the popup or opened another, the pin asked for may be asked for again.
  useEffect(() => {
    if (selected !== requested.current?.id) requested.current = undefined;
  }, [selected]);
  const appPins = useAppPins(adapter, renderPin ? highlightedPins : undefined);

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

  const basemapNote = useBasemapNote(adapter, showsEmbeddedBasemap(config) && status !== 'error', status === 'idle');
  const [noteStrip, setNoteStrip] = useState<HTMLDivElement | null>(null);
  useNoteStrip(adapter, rootRef, noteStrip);
  const anyNotice = Boolean(engineNotice || notice || progressText || shownPageNotice || streamNotice);

  const dismissLabel = locale['PinLayer.Dismiss'];
  return (
    // A landmark of its own, so the controls around the map's canvas are inside one for screen readers.
    <div className={rootClass(className)} style={style} ref={rootRef} role="region" aria-label={regionLabel(config)} data-selection={selectedPinId === undefined ? undefined : ''} data-map-state={shownStatus} data-view={view} data-theme={theme}>
      {adapter && status !== 'error' && (
        <a className="pinmap-skip-link" href="#" onClick={(event) => skipToControls(event, rootRef.current)}>
          {locale['Pinmap.SkipToControls']}
        </a>
      )}
      <div className="pinmap-map" ref={containerRef} />
      {(basemapNote.state === 'shown' || basemapNote.state === 'leaving') && (
        <BasemapNote
          text={locale['Basemap.NoStreets'].replaceAll('{pins}', pinFileName(config.pins))}
          dismissLabel={dismissLabel}
          gone={basemapNote.state === 'leaving'}
          onDone={basemapNote.hide}
          stripRef={setNoteStrip}
        />
      )}
      {anyNotice && (
        <div className="pinmap-top">
          <div className="pinmap-notices">
              {shownPageNotice && <PinNotice text={shownPageNotice} dismissLabel={dismissLabel} onDismiss={() => setDismissedPageNotice(shownPageNotice)} />}
              {progressText && (
                <p className="pinmap-notice pinmap-progress" role="status">
                  {progressText}
                </p>
              )}
              {engineNotice && <PinNotice text={redact(engineNotice)} dismissLabel={dismissLabel} onDismiss={() => setEngineNotice(undefined)} alert />}
              {streamNotice && (
                <PinNotice text={redact(streamNotice)} dismissLabel={dismissLabel} onDismiss={() => setStreamNotice(undefined)} alert />
              )}
              {notice && (
                <PinNotice
                  text={redact(notice.text)}
                  dismissLabel={dismissLabel}
                  onDismiss={() => setNotice(undefined)}
                  alert={notice.retry !== undefined}
                  {...(notice.retry ? { retryLabel: locale['PinLayer.Retry'], onRetry: notice.retry } : {})}
                />
              )}
          </div>
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
      {renderPin && appPins.map(({ pin, element }) => createPortal(renderPin(pin), element, pin.id))}
      {renderPopup && <AppPopup targets={popupTargets} render={renderPopup} />}
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
const LIVE_KEYS = ['pins', 'pinsRefresh', 'pinsStream', 'pinStyles', 'searchFields', 'popupFields', 'listDetailField', 'csv', 'fitPins', 'hiddenCategories', 'theme', 'controls', 'units', 'bearingSnap', 'trackUserLocation', 'fitToUserLocation', 'hash'] as const;
/** Config keys that only a new map reads: its first camera and popup. */
const INITIAL_KEYS = ['center', 'zoom', 'bearing', 'pitch', 'openPin'] as const;

/** No pins: what a map is given when its pins are taken away. */
const EMPTY_PIN_SET: PinSet = { pins: [], skipped: [], warnings: [], pinStyles: {} };

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
 * Keeps `openPin` as the open popup's id and `select` told of it, and tells the pin events.
 * `onSelect` is told once the map is done: a popup that closes as another opens tells only the
 * new one. Returns the unsubscribe.
 */
function watchPins(adapter: MapAdapter, openPin: { current: string | null }, events: EventsRef, select: (id: string | null) => void): () => void {
  let told: string | null = null;
  let live = true;
  const stopOpen = adapter.onOpenPinChange((id) => {
    const previous = openPin.current;
    openPin.current = id;
    select(id);
    if (previous !== null && previous !== id) events.current.onPopupClose?.({ id: previous });
    if (id !== null && id !== previous) events.current.onPopupOpen?.({ id });
    queueMicrotask(() => {
      if (!live || openPin.current === told) return;
      told = openPin.current;
      events.current.onSelect?.(told);
    });
  });
  const stopClick = adapter.onPinClick((id) => events.current.onPinClick?.({ id }));
  return () => {
    live = false;
    stopOpen();
    stopClick();
  };
}

/** The open popup's element for an app's content, and its pin. */
type PopupTarget = { pin: Pin; element: HTMLElement };

/**
 * The open popup's target for `renderPopup`, as a store that `AppPopup` reads: a store's change
 * is rendered at once (before the popup is painted), and only the portal renders, not the map's
 * whole component.
 */
class PopupTargets {
  private target: PopupTarget | undefined;
  private readonly listeners = new Set<() => void>();

  set(target: PopupTarget | undefined): void {
    if (target === this.target) return;
    this.target = target;
    for (const listener of this.listeners) listener();
  }

  /** The popup of this pin is open now (null: none): a target of another pin's popup goes. */
  opened(id: string | null): void {
    if (this.target && this.target.pin.id !== id) this.set(undefined);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly get = (): PopupTarget | undefined => this.target;
}

/** The app's popup content (`renderPopup`), rendered through a portal into the open popup. */
function AppPopup({ targets, render }: { targets: PopupTargets; render: NonNullable<PinmapProps['renderPopup']> }) {
  const target = useSyncExternalStore(targets.subscribe, targets.get, noTarget);
  const pin = useMemo(() => (target ? pinmapPinOf(target.pin) : undefined), [target]);
  return target && pin ? createPortal(render(pin), target.element, target.pin.id) : null;
}

const noTarget = () => undefined;

/**
 * The popup content of an app's `renderPopup`: an element for each popup, which `AppPopup`'s
 * portal renders into once `target` has it.
 */
function appPopupContent(target: (popup: { pin: Pin; element: HTMLElement }) => void): PopupContent {
  return (pin) => {
    const element = document.createElement('div');
    element.className = 'pinmap-popup-content pinmap-popup-app';
    target({ pin, element });
    return element;
  };
}

/**
 * What the pin notice says, of which pins; a pin file that could not be loaded offers to load it
 * again.
 */
type Notice = { text: string; for: PinSource | undefined; retry?: () => void; refreshFailure?: boolean };
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

function rootClass(className: string | undefined): string {
  return className ? `pinmap ${className}` : 'pinmap';
}

/** What takes the keyboard's focus among the corners' controls. */
const FOCUSABLE = 'button:not(:disabled), input, select, summary, a[href], [tabindex]:not([tabindex="-1"])';

/** The skip link: the focus goes past the map and its pins to the first of the corners' controls. */
function skipToControls(event: MouseEvent, root: HTMLElement | null): void {
  event.preventDefault();
  root?.querySelector<HTMLElement>(`.pinmap-corner :is(${FOCUSABLE})`)?.focus();
}
