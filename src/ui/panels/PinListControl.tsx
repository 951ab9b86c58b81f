import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { BubblePins, MapAdapter } from '../../map/adapter.ts';
import type { Pin, PinArchive, ShownBubble } from '../../pins/types.ts';
import { reasonOf } from '../../config/errors.ts';
import type { Locale } from '../../config/locale.ts';
import { firstLine, pinsInView } from '../../pins/search.ts';
import { listDetail, repeatedTitles } from '../../pins/list-detail.ts';
import { countText } from './locale-count.ts';
import { ListIcon } from './panel-icons.tsx';
import { PanelButton } from './PanelButton.tsx';
import { NARROW_WIDTH } from './layout.ts';
import type { ShowPin } from '../hooks/use-show-pin.ts';

/** How long the view must rest before the list follows it (ms). */
export const LIST_DEBOUNCE = 250;
/** The height of one entry (px): the title and, below it, the category and the popup's first line. */
const ROW_HEIGHT = 44;
/** Room kept free under the panel (px): the bottom corners' controls are measured, and this much more. */
const MARGIN = 10;

export interface PinListControlProps {
  adapter: MapAdapter;
  locale: Locale;
  /** Categories the legend hides: their pins are not listed. */
  hidden: readonly string[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  showPin: ShowPin;
  /** Changes when a new pin set is on the map. */
  pinsVersion: number;
  /** The Pinmap root: the panel is as tall as the room below it allows; a narrow map closes it on a pick. */
  root: RefObject<HTMLElement | null>;
  /** "Show all pins": the camera fits every pin shown (hidden categories left out). */
  onShowAll: () => void;
  /** How far a large pin file has come ("Loading pins… 40 %"): the live region says it meanwhile. */
  progress?: string | undefined;
  /** Moves the camera to `center` at `zoom`: what an entry of a bubble does (to where it splits). */
  zoomTo: (center: [number, number], zoom: number) => void;
  /**
   * A bubble the map cannot zoom into, activated (`MapAdapter.onBubblePins`): while given, the
   * open panel lists its pins instead of those in view.
   */
  bubble?: BubblePins | undefined;
  /** Back from the bubble's pins to the pins in view (the panel stays open). */
  onBubbleEnd?: () => void;
  /**
   * Whether the control has its button (the list is in config's `controls`); without it, the panel
   * shows only a bubble's pins, with a button that closes it.
   */
  toggle?: boolean;
  /** The pin property an entry whose title is repeated in the list shows on its second line (config's `listDetailField`); else its place. */
  detailField?: string | undefined;
}

/** An entry of the list: a pin, or (pre-tiled pins) a bubble of pins, listed after the pins. */
type ListEntry = { kind: 'pin'; key: string; pin: Pin } | { kind: 'bubble'; key: string; bubble: ShownBubble };

const pinEntry = (pin: Pin): ListEntry => ({ kind: 'pin', key: pin.id, pin });

/** Whether two entries show the same: the same pin (or, pre-tiled, one read again with the same id and text), or a bubble of the same count. */
function sameEntry(a: ListEntry, b: ListEntry): boolean {
  if (a.kind === 'bubble' || b.kind === 'bubble') return a.kind === 'bubble' && b.kind === 'bubble' && a.key === b.key && a.bubble.count === b.bubble.count;
  const [pin, other] = [a.pin, b.pin];
  return pin === other || (pin.id === other.id && pin.title === other.title && pin.category === other.category && pin.description === other.description);
}

/** Whether two lists show the same entries in the same order. */
const sameEntries = (a: readonly ListEntry[], b: readonly ListEntry[]): boolean => a.length === b.length && a.every((entry, i) => sameEntry(entry, b[i]!));

/** A bubble's status: how many pins it holds, and how many of them are listed when fewer. */
function bubbleStatus(locale: Locale, count: number, listed: number): string {
  const text = locale[listed < count ? 'PinList.BubbleFirst' : 'PinList.BubbleCount'];
  return text.replace('{count}', Math.max(count, listed).toLocaleString('en-US')).replace('{listed}', listed.toLocaleString('en-US'));
}

/** The bubbles whose centre is in view, biggest first, as entries. */
function bubbleEntries(bubbles: readonly ShownBubble[], contains: (lngLat: [number, number]) => boolean): ListEntry[] {
  return bubbles
    .filter((bubble) => contains(bubble.lngLat))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((bubble) => ({ kind: 'bubble', key: `bubble ${bubble.key}`, bubble }));
}

/**
 * Pre-tiled pins: the entries' popup text, which their tiles do not carry (a tile's pin has its
 * title and look only), read from the archive's pin index for the entries rendered (`ids`), each
 * once (the index is read a bucket of about 64 pins at a time, kept). By id, once answered
 * (undefined: the index has no such pin); none for inline pins.
 */
function usePinDetails(archive: PinArchive | undefined, ids: readonly string[]): ReadonlyMap<string, Pin | undefined> {
  const [details, setDetails] = useState<{ archive: PinArchive; pins: Map<string, Pin | undefined> }>();
  const asked = useRef<{ archive: PinArchive | undefined; ids: Set<string> }>({ archive: undefined, ids: new Set() });
  const key = ids.join('\n');
  useEffect(() => {
    if (!archive) return;
    if (asked.current.archive !== archive) asked.current = { archive, ids: new Set() };
    const wanted = asked.current.ids;
    for (const id of key.split('\n')) {
      if (id === '' || wanted.has(id)) continue;
      wanted.add(id);
      archive.find(id).then(
        (found) => setDetails((now) => ({ archive, pins: new Map(now?.archive === archive ? now.pins : []).set(id, found?.pin) })),
        (error: unknown) => {
          // Asked again when it is next rendered.
          wanted.delete(id);
          console.error(`Pinmap: the pin index of ${archive.url} could not be read: ${reasonOf(error)}`);
        },
      );
    }
  }, [archive, key]);
  return details && details.archive === archive ? details.pins : NO_DETAILS;
}

const NO_DETAILS: ReadonlyMap<string, Pin | undefined> = new Map();
/** A bubble's list while its pins are on their way. */
const NO_ENTRIES: ListEntry[] = [];
const ignore = () => {};

/**
 * The list of the pins in view: a button that opens a panel listing them (title, category and
 * the popup's first line; for a title repeated in the list, a detail that tells its entries apart:
 * `detailField`'s text or the place) in a stable order, following the view once it rests. Each entry is a
 * button; Enter or a click flies to the pin and opens its popup. The arrows, Home and End move
 * between entries (one Tab stop for the list); Escape closes the panel and focus goes back to
 * the button. "Show all pins" fits the camera to every pin shown, in view or not. A polite status says how many pins are in view. Nothing is computed while it is
 * closed, and only the entries in its scrolled view are in the DOM (virtualised). Pre-tiled pins
 * (not all on the page): the pins the map draws in view (`MapAdapter.getShownPins`), each with
 * its popup text read from the archive's pin index once it is rendered (`usePinDetails`), and
 * then each bubble in view (`MapAdapter.getShownBubbles`) as an entry "N pins: zoom in" that
 * flies to where it splits; read again whenever the map has drawn a new view.
 *
 * A bubble the map cannot zoom into (`bubble`, from `MapAdapter.onBubblePins`) scopes the panel
 * to its pins: 'Pins in this bubble', a status '8 pins here' once they have come, the focus on the
 * first, and 'Pins in view' back to the view's pins (or, without the list's button, `toggle`
 * false, 'Close the list'). Closing the panel gives the focus back to the bubble.
 */
export function PinListControl({ adapter, locale, hidden, open, onOpenChange, showPin, pinsVersion, root, onShowAll, progress, zoomTo, bubble, onBubbleEnd = ignore, toggle = true, detailField }: PinListControlProps) {
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [viewEntries, setEntries] = useState<ListEntry[]>([]);
  /** The pins of the bubble given, once they have come. */
  const [bubbleList, setBubbleList] = useState<{ bubble: BubblePins; entries: ListEntry[] }>();
  const listed = bubble === undefined ? undefined : bubbleList?.bubble === bubble ? bubbleList.entries : NO_ENTRIES;
  const entries = listed ?? viewEntries;
  const [activeId, setActiveId] = useState<string>();
  const [maxHeight, setMaxHeight] = useState(6 * ROW_HEIGHT);
  const focusAfterRender = useRef<number | undefined>(undefined);
  /**
   * The entry of the bubble chosen in the list, while it is listed: once the view it flew to is
   * listed without it (the map has drawn its pins), focus goes to the first entry.
   */
  const chosenBubble = useRef<string | undefined>(undefined);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- read again for each new pin set
  const archive = useMemo(() => adapter.getArchive(), [adapter, pinsVersion]);

  // A bubble's pins: listed once they come, the focus on the first (from the bubble, by mouse or keyboard).
  useEffect(() => {
    if (!bubble) return;
    let live = true;
    bubble.pins().then(
      (pins) => {
        if (!live) return;
        setActiveId(undefined);
        focusAfterRender.current = 0;
        setBubbleList({ bubble, entries: pins.map(pinEntry) });
      },
      (error: unknown) => {
        if (live) console.error(`Pinmap: the bubble's pins could not be listed: ${reasonOf(error)}`);
      },
    );
    return () => {
      live = false;
    };
  }, [bubble]);

  // While open: the pins in view now, and again once the view rests after a move.
  useEffect(() => {
    if (!open || bubble) return;
    const hiddenSet = new Set(hidden);
    let timer: number | undefined;
    const update = () => {
      timer = undefined;
      const contains = adapter.viewContains();
      const next = pinsInView(adapter.getShownPins() ?? adapter.getPins(), contains, hiddenSet).map(pinEntry);
      next.push(...bubbleEntries(adapter.getShownBubbles() ?? [], contains));
      // The same entries as listed (the map rested where it was, or drew the same again): no new render.
      setEntries((listed) => (sameEntries(listed, next) ? listed : next));
    };
    const schedule = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(update, LIST_DEBOUNCE);
    };
    update();
    const stopCamera = adapter.onCameraChange(schedule);
    const stopPins = adapter.onPinsChange(update);
    const stopShown = adapter.onShownPinsChange(schedule);
    return () => {
      window.clearTimeout(timer);
      stopCamera();
      stopPins();
      stopShown();
    };
  }, [open, adapter, hidden, pinsVersion, bubble]);

  // As tall as the map leaves room for: up to the controls of the other corners on its side
  // (below it in a top corner, above it in a bottom one).
  useLayoutEffect(() => {
    if (!open) return;
    const measure = () => {
      const frame = root.current?.getBoundingClientRect();
      const box = scroller.current?.getBoundingClientRect();
      const own = scroller.current?.closest('.pinmap-corner');
      if (!frame || !box || !own) return;
      const upwards = own.getAttribute('data-corner')!.startsWith('bottom');
      let room = upwards ? box.bottom - frame.top : frame.bottom - box.top;
      for (const control of root.current!.querySelectorAll(`.pinmap-corner[data-corner^="${upwards ? 'top' : 'bottom'}"] > .pinmap-ctrl`)) {
        const r = control.getBoundingClientRect();
        if (r.width > 0 && r.left < box.right && r.right > box.left) room = Math.min(room, upwards ? box.bottom - r.bottom : r.top - box.top);
      }
      setMaxHeight(Math.max(2 * ROW_HEIGHT, Math.min(10 * ROW_HEIGHT, room - MARGIN - 8)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    if (root.current) observer.observe(root.current);
    // The map's box, which the no-streets note's strip shortens while it shows (the top corners move down with it).
    const map = root.current?.querySelector('.pinmap-map');
    if (map) observer.observe(map);
    return () => observer.disconnect();
  }, [open, root, entries]);

  // The component reads the virtualizer afresh on every render (it is not memoised anywhere).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    // The panel's size before it is measured, so its first render already has entries.
    initialRect: { width: 260, height: maxHeight },
    getItemKey: (index) => entries[index]!.key,
  });

  /** The titles of more than one entry: those entries show a detail (`listDetail`) that tells them apart. */
  const repeated = useMemo(() => repeatedTitles(entries.flatMap((entry) => (entry.kind === 'pin' ? [entry.pin] : []))), [entries]);

  const found = activeId === undefined ? -1 : entries.findIndex((entry) => entry.key === activeId);
  const active = found < 0 ? 0 : found;

  useEffect(() => {
    if (chosenBubble.current === undefined || entries.some((entry) => entry.key === chosenBubble.current)) return;
    chosenBubble.current = undefined;
    focusAfterRender.current = 0;
  }, [entries]);

  // Focus follows the arrows once the entry is rendered (it may have been scrolled in just now).
  useEffect(() => {
    const index = focusAfterRender.current;
    if (index === undefined) return;
    const entry = scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"] button`);
    if (!entry) return;
    focusAfterRender.current = undefined;
    entry.focus();
  });

  /** Closes the panel; focus goes back to what opened it: the bubble listed (if still on the map), else the button. */
  const close = () => {
    const trigger = bubble?.trigger?.isConnected ? bubble.trigger : undefined;
    onOpenChange(false);
    (trigger ?? button.current)?.focus({ preventScroll: true });
  };

  /** From a bubble's pins back to the pins in view, the focus on the first. */
  const backToView = () => {
    setActiveId(undefined);
    focusAfterRender.current = 0;
    onBubbleEnd();
  };

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(entries.length - 1, index));
    const entry = entries[next];
    if (!entry) return;
    setActiveId(entry.key);
    focusAfterRender.current = next;
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onListKey = (event: KeyboardEvent) => {
    const page = Math.max(1, Math.floor(maxHeight / ROW_HEIGHT) - 1);
    // From the entry the last key moved to, even if it is not rendered and focused yet (keys
    // pressed faster than the list renders each move on from the one before).
    const from = focusAfterRender.current ?? active;
    const step: Record<string, number> = { ArrowDown: from + 1, ArrowUp: from - 1, Home: 0, End: entries.length - 1, PageDown: from + page, PageUp: from - page };
    if (!(event.key in step)) return;
    event.preventDefault();
    moveTo(step[event.key]!);
  };

  const pick = (pin: Pin, byKeyboard: boolean) => {
    setActiveId(pin.id);
    // A narrow map has no room for the panel beside the popup: the panel closes, and the popup
    // gives focus back to the list's button.
    const narrow = (root.current?.clientWidth ?? Infinity) <= NARROW_WIDTH;
    if (narrow) onOpenChange(false);
    showPin(pin.id, {
      byKeyboard,
      returnFocus: () => {
        const entry = narrow ? undefined : scroller.current?.querySelector<HTMLElement>(`button[data-pin-id="${CSS.escape(pin.id)}"]`);
        const trigger = bubble?.trigger?.isConnected ? bubble.trigger : undefined;
        (entry ?? button.current ?? trigger)?.focus({ preventScroll: true });
      },
    });
  };

  /**
   * A bubble's entry: the camera flies to where it splits, on the copy of the world in view. Focus
   * stays in the list, on its first entry once the new view's entries are in.
   */
  const zoomInto = (key: string, { lngLat: [lng, lat], expansionZoom }: ShownBubble) => {
    const center = adapter.getCamera().center[0];
    setActiveId(undefined);
    chosenBubble.current = scroller.current?.contains(document.activeElement) ? key : undefined;
    zoomTo([lng + 360 * Math.round((center - lng) / 360), lat], expansionZoom);
  };

  const title = locale[bubble ? 'PinList.BubbleTitle' : 'PinList.Title'];
  const renderedPins = virtualizer.getVirtualItems().flatMap((item) => {
    const entry = entries[item.index]!;
    return entry.kind === 'pin' ? [entry.pin.id] : [];
  });
  const details = usePinDetails(open ? archive : undefined, renderedPins);
  /** Pre-tiled pins whose popup text is on its way. */
  const reading = archive !== undefined && renderedPins.some((id) => !details.has(id));
  /** Pins in view: those listed, and those in the bubbles listed. */
  const inView = entries.reduce((sum, entry) => sum + (entry.kind === 'pin' ? 1 : entry.bubble.count), 0);
  const count = countText(locale, inView, 'PinList.Count', 'PinList.CountOne');
  /**
   * The status: the bubble's count once its pins are listed (said as they come; with how many are
   * listed when it holds more than its list loads, `BubblePins.pins`), else how many pins are in view.
   */
  const status = bubble ? (listed === NO_ENTRIES ? '' : bubbleStatus(locale, bubble.count, inView)) : (progress ?? (inView === 0 ? locale['PinList.Empty'] : count));
  const height = Math.min(entries.length * ROW_HEIGHT, maxHeight);
  return (
    <div className="pinmap-ctrl pinmap-list" data-state={open ? 'open' : 'closed'}>
      {toggle && (
        <PanelButton buttonRef={button} className="pinmap-list-button" label={locale['PinList.Open']} open={open} panelId={panelId} onClick={() => onOpenChange(!open)}>
          <ListIcon />
        </PanelButton>
      )}
      {open && (
        <section
          id={panelId}
          className="pinmap-panel pinmap-list-panel"
          data-scope={bubble ? 'bubble' : 'view'}
          aria-label={title}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            close();
          }}
        >
          <h2 className="pinmap-panel-title">{title}</h2>
          <div className="pinmap-list-header">
            <p className="pinmap-list-count" role="status" aria-live="polite" data-count={inView}>
              {status}
            </p>
            {!bubble ? (
              <button type="button" className="pinmap-list-show-all" onClick={onShowAll}>
                {locale['PinList.ShowAll']}
              </button>
            ) : toggle ? (
              <button type="button" className="pinmap-list-show-all pinmap-list-back" onClick={backToView}>
                {locale['PinList.BackToView']}
              </button>
            ) : (
              <button type="button" className="pinmap-list-show-all pinmap-list-close" onClick={close}>
                {locale['PinList.Close']}
              </button>
            )}
          </div>
          {entries.some((entry) => entry.kind === 'bubble') && <p className="pinmap-list-note">{locale['PinList.ShownOnly']}</p>}
          <div ref={scroller} className="pinmap-list-scroll" style={{ height, maxHeight }}>
            <ul className="pinmap-list-items" aria-label={title} aria-busy={reading} style={{ height: virtualizer.getTotalSize() }} onKeyDown={onListKey}>
              {virtualizer.getVirtualItems().map((item) => {
                const entry = entries[item.index]!;
                const place = { 'data-index': item.index, 'aria-setsize': entries.length, 'aria-posinset': item.index + 1, style: { transform: `translateY(${item.start}px)` } };
                if (entry.kind === 'bubble') {
                  const { bubble } = entry;
                  return (
                    <li key={item.key} {...place}>
                      <button
                        type="button"
                        className="pinmap-list-item pinmap-list-bubble"
                        data-bubble={bubble.key}
                        data-count={bubble.count}
                        tabIndex={item.index === active ? 0 : -1}
                        onFocus={() => setActiveId(entry.key)}
                        onClick={() => zoomInto(entry.key, bubble)}
                      >
                        <span className="pinmap-list-title">{locale['PinLayer.Cluster'].replace('{count}', bubble.count.toLocaleString('en-US'))}</span>
                      </button>
                    </li>
                  );
                }
                const pin = details.get(entry.pin.id) ?? entry.pin;
                const line = firstLine(pin.description);
                // Shown unless the line already says it (a detail field of the description or the category).
                const told = repeated.has(entry.pin.title) ? listDetail(pin, detailField) : '';
                const detail = told === line || told === pin.category ? '' : told;
                const meta = [
                  pin.category !== undefined && (
                    <span key="category" className="pinmap-list-category">
                      {pin.category}
                    </span>
                  ),
                  detail !== '' && (
                    <span key="detail" className="pinmap-list-detail">
                      {detail}
                    </span>
                  ),
                  line !== '' && line,
                ].filter((part) => part !== false);
                return (
                  <li key={item.key} {...place}>
                    <button
                      type="button"
                      className="pinmap-list-item"
                      data-pin-id={pin.id}
                      tabIndex={item.index === active ? 0 : -1}
                      onFocus={() => setActiveId(entry.key)}
                      onClick={(event) => pick(pin, event.detail === 0)}
                    >
                      <span className="pinmap-list-title">{pin.title}</span>
                      {meta.length > 0 && <span className="pinmap-list-meta">{meta.flatMap((part, i) => (i === 0 ? [part] : [' · ', part]))}</span>}
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        </section>
      )}
    </div>
  );
}
