import { useEffect, useMemo, useRef, useState } from 'react';
import type { AppPinHost, MapAdapter } from '../../map/adapter.ts';
import { APP_PIN_LIMIT, takeAppPins } from '../../map/app-pins.ts';
import type { PinmapPin } from '../pinmap-api.ts';
import { pinmapPinOf } from '../popup-pin.ts';

/** A pin `renderPin` draws now, and the element its content is rendered into (through a portal). */
export interface AppPinTarget {
  pin: PinmapPin;
  element: HTMLElement;
}

/**
 * `highlightedPins` on the map (`MapAdapter.setAppPins`; undefined: none): the first
 * `APP_PIN_LIMIT` ids, told again only when they change (by content, not by the array's
 * identity), with one console warning per map component when more are given. Returns the pins
 * the map shows alone now, each with the element its content goes into.
 */
export function useAppPins(adapter: MapAdapter | undefined, ids: readonly string[] | undefined): AppPinTarget[] {
  const key = ids ? ids.join('\n') : '';
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const taken = useMemo(() => takeAppPins(ids ?? []), [key]);
  const warned = useRef(false);
  useEffect(() => {
    if (!taken.over || warned.current) return;
    warned.current = true; // once, under StrictMode too
    console.warn(`Pinmap: highlightedPins names more than ${APP_PIN_LIMIT} pins; renderPin draws the first ${APP_PIN_LIMIT} of them only.`);
  }, [taken]);

  const [hosts, setHosts] = useState<{ for: MapAdapter; hosts: ReadonlyMap<string, AppPinHost> }>();
  useEffect(() => adapter?.onAppPinsChange((next) => setHosts({ for: adapter, hosts: next })), [adapter]);
  useEffect(() => adapter?.setAppPins(taken.ids), [adapter, taken]);
  return useMemo(() => (hosts && hosts.for === adapter ? Array.from(hosts.hosts.values(), ({ pin, element }) => ({ pin: pinmapPinOf(pin), element })) : []), [hosts, adapter]);
}
