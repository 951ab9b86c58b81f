import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { MapAdapter } from '../../map/adapter.ts';
import type { Pin, PinArchive } from '../../pins/types.ts';
import { reasonOf } from '../../config/errors.ts';
import type { Locale } from '../../config/locale.ts';
import { firstLine, pinsInView } from '../../pins/search.ts';
import { countText } from './locale-count.ts';
import { ListIcon } from './panel-icons.tsx';
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
}

/** Whether two lists show the same entries: the same pins (or, pre-tiled, pins read again with the same id and text) in the same order. */
function sameEntries(a: readonly Pin[], b: readonly Pin[]): boolean {
  return (
    a.length === b.length &&
    a.every((pin, i) => {
      const other = b[i]!;
      return pin === other || (pin.id === other.id && pin.title === other.title && pin.category === other.category && pin.description === other.description);
    })
  );
}

/**
 * Pre-tiled pins: the entries' popup text, which their tiles do not carry (a tile's pin has its
 * title and look only), read from the archive's pin index for the entries rendered (`ids`), each
 * once (the index is read a bucket of about 64 pins at a time, kept). By id; none for inline pins.
 */
function usePinDetails(archive: PinArchive | undefined, ids: readonly string[]): ReadonlyMap<string, Pin> {
  const [details, setDetails] = useState<{ archive: PinArchive; pins: Map<string, Pin> }>();
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
        (found) => {
          if (!found) return;
          setDetails((now) => ({ archive, pins: new Map(now?.archive === archive ? now.pins : []).set(id, found.pin) }));
        },
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

const NO_DETAILS: ReadonlyMap<string, Pin> = new Map();

/**
 * The list of the pins in view: a button that opens a panel listing them (title, category and
 * the popup's first line) in a stable order, following the view once it rests. Each entry is a
 * button; Enter or a click flies to the pin and opens its popup. The arrows, Home and End move
 * between entries (one Tab stop for the list); Escape closes the panel and focus goes back to
 * the button. "Show all pins" fits the camera to every pin shown, in view or not. A polite status says how many pins are in view. Nothing is computed while it is
 * closed, and only the entries in its scrolled view are in the DOM (virtualised). Pre-tiled pins
 * (not all on the page): the pins the map draws in view (`MapAdapter.getShownPins`), read again
 * whenever it has drawn a new view, each entry's popup text read from the archive's pin index
 * once it is rendered (`usePinDetails`).
 */
export function PinListControl({ adapter, locale, hidden, open, onOpenChange, showPin, pinsVersion, root, onShowAll, progress }: PinListControlProps) {
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [pins, setPins] = useState<Pin[]>([]);
  /** Pre-tiled pins: the list holds the pins drawn (not those in bubbles), and says so. */
  const [shownOnly, setShownOnly] = useState(false);
  const [activeId, setActiveId] = useState<string>();
  const [maxHeight, setMaxHeight] = useState(6 * ROW_HEIGHT);
  const focusAfterRender = useRef<number | undefined>(undefined);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- read again for each new pin set
  const archive = useMemo(() => adapter.getArchive(), [adapter, pinsVersion]);

  // While open: the pins in view now, and again once the view rests after a move.
  useEffect(() => {
    if (!open) return;
    const hiddenSet = new Set(hidden);
    let timer: number | undefined;
    const update = () => {
      timer = undefined;
      const shown = adapter.getShownPins();
      setShownOnly(shown !== undefined);
      const next = pinsInView(shown ?? adapter.getPins(), adapter.viewContains(), hiddenSet);
      // The same pins as listed (the map rested where it was, or drew the same pins again): no new render.
      setPins((listed) => (sameEntries(listed, next) ? listed : next));
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
  }, [open, adapter, hidden, pinsVersion]);

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
    return () => observer.disconnect();
  }, [open, root, pins]);

  // The component reads the virtualizer afresh on every render (it is not memoised anywhere).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: pins.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    // The panel's size before it is measured, so its first render already has entries.
    initialRect: { width: 260, height: maxHeight },
    getItemKey: (index) => pins[index]!.id,
  });

  const found = activeId === undefined ? -1 : pins.findIndex((pin) => pin.id === activeId);
  const active = found < 0 ? 0 : found;

  // Focus follows the arrows once the entry is rendered (it may have been scrolled in just now).
  useEffect(() => {
    const index = focusAfterRender.current;
    if (index === undefined) return;
    const entry = scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"] button`);
    if (!entry) return;
    focusAfterRender.current = undefined;
    entry.focus();
  });

  const close = () => {
    onOpenChange(false);
    button.current?.focus();
  };

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(pins.length - 1, index));
    const pin = pins[next];
    if (!pin) return;
    setActiveId(pin.id);
    focusAfterRender.current = next;
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onListKey = (event: KeyboardEvent) => {
    const page = Math.max(1, Math.floor(maxHeight / ROW_HEIGHT) - 1);
    // From the entry the last key moved to, even if it is not rendered and focused yet (keys
    // pressed faster than the list renders each move on from the one before).
    const from = focusAfterRender.current ?? active;
    const step: Record<string, number> = { ArrowDown: from + 1, ArrowUp: from - 1, Home: 0, End: pins.length - 1, PageDown: from + page, PageUp: from - page };
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
        (entry ?? button.current)?.focus({ preventScroll: true });
      },
    });
  };

  const title = locale['PinList.Title'];
  const details = usePinDetails(
    open ? archive : undefined,
    virtualizer.getVirtualItems().map((item) => pins[item.index]!.id),
  );
  const count = countText(locale, pins.length, 'PinList.Count', 'PinList.CountOne');
  const height = Math.min(pins.length * ROW_HEIGHT, maxHeight);
  return (
    <div className="pinmap-ctrl pinmap-list" data-state={open ? 'open' : 'closed'}>
      <div className="pinmap-ctrl-group">
        <button
          ref={button}
          type="button"
          className="pinmap-button pinmap-list-button"
          title={locale['PinList.Open']}
          aria-label={locale['PinList.Open']}
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => onOpenChange(!open)}
        >
          <ListIcon />
        </button>
      </div>
      {open && (
        <section
          id={panelId}
          className="pinmap-panel pinmap-list-panel"
          aria-label={title}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            close();
          }}
        >
          <h2 className="pinmap-panel-title">{title}</h2>
          <div className="pinmap-list-header">
            <p className="pinmap-list-count" role="status" aria-live="polite" data-count={pins.length}>
              {progress ?? (pins.length === 0 ? locale['PinList.Empty'] : count)}
            </p>
            <button type="button" className="pinmap-list-show-all" onClick={onShowAll}>
              {locale['PinList.ShowAll']}
            </button>
          </div>
          {shownOnly && <p className="pinmap-list-note">{locale['PinList.ShownOnly']}</p>}
          <div ref={scroller} className="pinmap-list-scroll" style={{ height, maxHeight }}>
            <ul className="pinmap-list-items" aria-label={title} style={{ height: virtualizer.getTotalSize() }} onKeyDown={onListKey}>
              {virtualizer.getVirtualItems().map((item) => {
                const pin = details.get(pins[item.index]!.id) ?? pins[item.index]!;
                const line = firstLine(pin.description);
                return (
                  <li key={item.key} data-index={item.index} aria-setsize={pins.length} aria-posinset={item.index + 1} style={{ transform: `translateY(${item.start}px)` }}>
                    <button
                      type="button"
                      className="pinmap-list-item"
                      data-pin-id={pin.id}
                      tabIndex={item.index === active ? 0 : -1}
                      onFocus={() => setActiveId(pin.id)}
                      onClick={(event) => pick(pin, event.detail === 0)}
                    >
                      <span className="pinmap-list-title">{pin.title}</span>
                      {(pin.category !== undefined || line !== '') && (
                        <span className="pinmap-list-meta">
                          {pin.category !== undefined && <span className="pinmap-list-category">{pin.category}</span>}
                          {pin.category !== undefined && line !== '' && ' · '}
                          {line}
                        </span>
                      )}
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
