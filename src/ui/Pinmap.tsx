import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { mapStatusMachine, type MapStatus } from '../machines/map-status.machine.ts';
import type { MapAdapter } from '../map/adapter.ts';
import { safeParseConfig, type ConfigError, type PinmapConfig, type PinmapConfigInput } from '../map/config.ts';
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
  const key = JSON.stringify(config ?? {});
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const parsed = useMemo(() => safeParseConfig(config), [key]);

  if (!parsed.ok) return <ConfigErrorView error={parsed.error} onStatusChange={onStatusChange} className={className} />;
  return <PinmapView config={parsed.config} onStatusChange={onStatusChange} className={className} />;
}

type ViewProps<T> = T & { onStatusChange?: StatusListener | undefined; className?: string | undefined };

function ConfigErrorView({ error, onStatusChange, className }: ViewProps<{ error: ConfigError }>) {
  const listener = useLatest(onStatusChange);
  useEffect(() => {
    listener.current?.('error', error.message);
  }, [error, listener]);
  return (
    <div className={rootClass(className)} data-map-state="error">
      <ErrorPanel title="This map's configuration has errors" problems={error.problems} />
    </div>
  );
}

function PinmapView({ config, onStatusChange, className }: ViewProps<{ config: PinmapConfig }>) {
  const rootRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const [adapter, setAdapter] = useState<MapAdapter>();
  const [notice, setNotice] = useState<string>();
  const [pinToOpen, setPinToOpen] = useState<PinToOpen>();
  const statusActor = useActorRef(mapStatusMachine, inspectOptions());
  const status = useSelector(statusActor, (s) => s.value as MapStatus);
  const failure = useSelector(statusActor, (s) => s.context.failure);

  // One map per mounted component and config. Under StrictMode React mounts, unmounts and
  // mounts again: the first map is removed (with its WebGL context) before the second is made,
  // so exactly one map, one context and one set of controls remain.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let live = true; // a removed map's late events must not move the next one's status
    statusActor.send({ type: 'map.created' });
    const engine = createEngine(container, config, {
      onStatus: (event) => {
        if (live) statusActor.send(event);
      },
    });
    const retry = statusActor.on('map.retryRequested', () => engine.retry());
    setAdapter(engine);
    setNotice(undefined);

    // Pins load beside the map; whatever is wrong with them is a notice, and the map goes on.
    const pinRequest = new AbortController();
    if (config.pins !== undefined) {
      const pins = loadPinSet(config.pins, config.pinStyles, document.baseURI, pinRequest.signal);
      pins.then(
        (set) => {
          if (!live) return;
          const report = describePinSet(set);
          if (report.console.length > 0) console.warn(`Pinmap: ${report.console.join('\n')}`);
          setNotice(report.notice);
        },
        (error: unknown) => {
          if (!live) return;
          console.error(`Pinmap: ${reasonOf(error)}`);
          setNotice(reasonOf(error));
        },
      );
      const placed = engine.setPins(pins);
      if (config.openPin !== undefined) {
        const id = config.openPin;
        setPinToOpen({
          id,
          placed,
          onMissing: () => {
            if (!live) return;
            console.warn(`Pinmap: there is no pin with the id "${id}" to open.`);
            setNotice(`There is no pin "${id}" on this map.`);
          },
        });
      }
    }
    return () => {
      live = false;
      pinRequest.abort();
      retry.unsubscribe();
      setAdapter(undefined);
      setPinToOpen(undefined);
      engine.destroy();
    };
  }, [config, statusActor]);

  useAddressSync(adapter, config.hash);
  useOpenPinAddressSync(adapter, config.hash);

  const listener = useLatest(onStatusChange);
  useEffect(() => {
    listener.current?.(status, failure?.message);
  }, [status, failure, listener]);

  return (
    // A landmark of its own, so the controls around the map's canvas are inside one for screen readers.
    <div className={rootClass(className)} ref={rootRef} role="region" aria-label={regionLabel(config)} data-map-state={status} data-view={adapter?.view ?? config.view}>
      <div className="pinmap-map" ref={containerRef} />
      {notice && <PinNotice text={notice} dismissLabel={localeWith(config.locale)['PinLayer.Dismiss']} onDismiss={() => setNotice(undefined)} />}
      {adapter && status !== 'error' && <Controls key={adapterKey(adapter)} adapter={adapter} config={config} root={rootRef} pinToOpen={pinToOpen} />}
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
