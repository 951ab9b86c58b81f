import { Suspense, lazy, useEffect, useMemo, useState, type ReactNode, type RefObject } from 'react';
import type { BubblePins, MapAdapter } from '../../map/adapter.ts';
import { DEFAULT_CONTROL_CORNERS, controlCorners, type ControlName, type Corner, type PinmapConfig } from '../../config/schema.ts';
import { localeWith } from '../../config/locale.ts';
import { AttributionControl } from './AttributionControl.tsx';
import { FullscreenControl } from './FullscreenControl.tsx';
import { GeolocateControl } from './GeolocateControl.tsx';
import { NavigationControl } from './NavigationControl.tsx';
import { ScaleControl } from './ScaleControl.tsx';
import { ViewControl } from './ViewControl.tsx';
import type { ViewName } from '../../config/address.ts';
import { useCameraActor } from '../hooks/use-camera-actor.ts';
import { useLatest } from '../hooks/use-latest.ts';
import { NARROW_WIDTH } from '../panels/layout.ts';
import { usePinSetVersion, useShowPin } from '../hooks/use-show-pin.ts';
import { FIT_PINS } from '../../config/constants.ts';
import type { PinBounds } from '../../pins/bounds.ts';
import { fitPadding } from '../fit-pins.ts';
import './controls.css';
import '../panels/panels.css';

// The pin panels come in one chunk of their own, loaded when a map first shows one (they are opt-in).
const loadPanels = () => import('../panels/index.ts');
const LegendControl = lazy(() => loadPanels().then((m) => ({ default: m.LegendControl })));
const PinListControl = lazy(() => loadPanels().then((m) => ({ default: m.PinListControl })));
const SearchControl = lazy(() => loadPanels().then((m) => ({ default: m.SearchControl })));

/**
 * The corners in the keyboard's Tab order (after the map and its pins): the top right first, with
 * the zoom buttons, then the others as a page is read. Each keeps its place in the stacking
 * (`controls.css`), whatever its place in the document.
 */
const CORNERS: Corner[] = ['top-right', 'top-left', 'bottom-left', 'bottom-right'];

/** The order controls stack in within a corner (and so the keyboard's Tab order). */
const ORDER: ControlName[] = ['search', 'fullscreen', 'view', 'list', 'navigation', 'geolocate', 'legend', 'scale', 'attribution'];

export interface ControlsProps {
  adapter: MapAdapter;
  config: PinmapConfig;
  /** The Pinmap root: what goes fullscreen and whose width makes the attribution compact. */
  root: RefObject<HTMLElement | null>;
  /** A pin whose popup opens once the pins are placed, after the camera flies to it (`?pin=<id>`). */
  pinToOpen?: PinToOpen | undefined;
  /** Switches to the other view (the view switch's buttons). */
  onSwitchView: (view: ViewName) => void;
  /** The pin categories the legend hides (kept by the Pinmap across views). */
  hidden?: readonly string[];
  /** The legend's checkboxes changed what is hidden. */
  onHiddenChange?: (hidden: string[]) => void;
  /** The box around the pins shown (hidden categories left out), for the pin list's "Show all pins"; undefined without pins. */
  pinsBox?: () => PinBounds | undefined;
  /** How far a large pin file has come ("Loading pins… 40 %"), for the pin list's live region. */
  pinProgress?: string | undefined;
}

/** The panels that open from a control. */
type Panel = 'list' | 'legend';

/**
 * A pin to show on load: its id, when the pins are on the map, and what to do if there is no
 * such pin. The camera flies to it first, unless `fly` is false (a popup carried over from the
 * other view opens where the camera already is).
 */
export interface PinToOpen {
  id: string;
  placed: Promise<void>;
  onMissing: () => void;
  /** The pins could not tell whether they have it: why (a pre-tiled archive's damaged pin index). */
  onUnreadable: (error: unknown) => void;
  fly?: boolean;
}

/**
 * The four corners (`data-corner`) and the controls config puts in them. One camera machine per
 * map runs every timed camera animation; the controls send it commands.
 */
export function Controls({ adapter, config, root, pinToOpen, onSwitchView, hidden = NONE, onHiddenChange = ignore, pinsBox, pinProgress }: ControlsProps) {
  const locale = useMemo(() => localeWith(config.locale), [config.locale]);
  const placement = useMemo(() => controlCorners(config), [config]);
  const camera = useCameraActor(adapter, config.bearingSnap);
  const showPin = useShowPin(adapter, camera);
  const pinsVersion = usePinSetVersion(adapter);
  // The legend starts open where there is room for it; on a narrow map one panel opens at a time.
  const [panels, setPanels] = useState<Record<Panel, boolean>>(() => ({ list: false, legend: (root.current?.clientWidth ?? 0) > NARROW_WIDTH }));
  const setPanel = (panel: Panel, open: boolean) => {
    const narrow = (root.current?.clientWidth ?? Infinity) <= NARROW_WIDTH;
    setPanels((now) => (open && narrow ? { list: false, legend: false, [panel]: true } : { ...now, [panel]: open }));
  };
  /**
   * A bubble the map cannot zoom into, activated: the list panel opens on its pins, with the list's
   * button if config shows it, else on its own where the list would be. New pins or other hidden
   * categories end it (its pins were grouped otherwise).
   */
  const [listed, setListed] = useState<{ bubble: BubblePins; pinsVersion: number; hidden: readonly string[] }>();
  const grouping = useLatest({ pinsVersion, hidden });
  useEffect(
    () =>
      adapter.onBubblePins((bubble) => {
        setListed({ bubble, ...grouping.current });
        setPanel('list', true);
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setPanel reads only refs and state setters
    [adapter],
  );
  const bubble = listed && listed.pinsVersion === pinsVersion && listed.hidden === hidden ? listed.bubble : undefined;
  const listCorner = placement.list || (bubble ? DEFAULT_CONTROL_CORNERS.list : false);

  // A pin asked for from outside the panels (`?pin=`, the other view's popup, `selectedPinId`)
  // takes the panels' path once the pins are placed.
  useEffect(() => {
    if (!pinToOpen) return;
    let live = true;
    void pinToOpen.placed.then(() => {
      if (live) showPin(pinToOpen.id, { fly: pinToOpen.fly !== false, onMissing: pinToOpen.onMissing, onUnreadable: pinToOpen.onUnreadable });
    });
    return () => {
      live = false;
    };
  }, [showPin, pinToOpen]);

  const render = (name: ControlName): ReactNode => {
    // Each panel waits for the panels' chunk on its own; the corner's other controls show meanwhile.
    const panel = (control: ReactNode) => (
      <Suspense key={name} fallback={null}>
        {control}
      </Suspense>
    );
    switch (name) {
      case 'navigation':
        return <NavigationControl key={name} adapter={adapter} camera={camera} locale={locale} />;
      case 'geolocate':
        return (
          <GeolocateControl
            key={name}
            adapter={adapter}
            locale={locale}
            trackUserLocation={config.trackUserLocation}
            fitToUserLocation={config.fitToUserLocation}
            fitCamera={(bounds, maxZoom) => camera.send({ type: 'camera.fitTo', bounds, maxZoom })}
          />
        );
      case 'scale':
        return <ScaleControl key={name} adapter={adapter} units={config.units} locale={locale} />;
      case 'fullscreen':
        return <FullscreenControl key={name} root={root} locale={locale} />;
      case 'attribution':
        return <AttributionControl key={name} adapter={adapter} root={root} locale={locale} />;
      case 'view':
        return <ViewControl key={name} view={adapter.view} onSwitch={onSwitchView} locale={locale} />;
      case 'list':
        return panel(
          <PinListControl
            adapter={adapter}
            locale={locale}
            hidden={hidden}
            open={panels.list}
            onOpenChange={(open) => {
              setPanel('list', open);
              if (!open) setListed(undefined);
            }}
            bubble={bubble}
            onBubbleEnd={() => setListed(undefined)}
            toggle={placement.list !== false}
            detailField={config.listDetailField}
            showPin={showPin}
            pinsVersion={pinsVersion}
            root={root}
            onShowAll={() => {
              const bounds = pinsBox?.();
              const frame = root.current;
              if (!bounds || !frame) return;
              camera.send({ type: 'camera.fitTo', bounds, maxZoom: Math.min(config.maxZoom, FIT_PINS.maxZoom), padding: fitPadding(frame.clientWidth, frame.clientHeight) });
            }}
            progress={pinProgress}
            zoomTo={(center, zoom) => camera.send({ type: 'camera.flyTo', center, zoom })}
          />,
        );
      case 'legend':
        return panel(
          <LegendControl
            adapter={adapter}
            locale={locale}
            hidden={hidden}
            onHiddenChange={onHiddenChange}
            open={panels.legend}
            onOpenChange={(open) => setPanel('legend', open)}
            pinsVersion={pinsVersion}
          />,
        );
      case 'search':
        return panel(<SearchControl adapter={adapter} locale={locale} hidden={hidden} fields={config.searchFields} showPin={showPin} pinsVersion={pinsVersion} />);
    }
  };

  return (
    <>
      {CORNERS.map((corner) => (
        <div key={corner} className="pinmap-corner" data-corner={corner}>
          {ORDER.filter((name) => (name === 'list' ? listCorner : placement[name]) === corner).map(render)}
        </div>
      ))}
    </>
  );
}

const NONE: readonly string[] = [];
const ignore = () => {};
