import { useEffect, useId, useMemo, useRef } from 'react';
import type { MapAdapter } from '../../map/adapter.ts';
import type { Locale } from '../../config/locale.ts';
import { legendEntries, uncategorisedCount } from '../../pins/legend.ts';
import { createPinElement, resolvePinStyle } from '../../pins/icon.ts';
import type { PinOptions } from '../../config/pin-options.ts';
import { countText } from './locale-count.ts';
import { LegendIcon } from './panel-icons.tsx';
import { PanelButton } from './PanelButton.tsx';

export interface LegendControlProps {
  adapter: MapAdapter;
  locale: Locale;
  hidden: readonly string[];
  onHiddenChange: (hidden: string[]) => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Changes when a new pin set is on the map. */
  pinsVersion: number;
}

/**
 * The legend: a button that shows or hides a panel of the pin set's categories, each with its
 * pin (drawn by the same function as the map's), its name and how many pins it has, and a
 * checkbox that shows or hides its pins on the map. Escape closes the panel and focus goes back
 * to the button. Pins without a category have a line of their own, without a checkbox ("Pins" in
 * a set without categories, "Other pins" below the categories). Shown once the map has pins.
 */
export function LegendControl({ adapter, locale, hidden, onHiddenChange, open, onOpenChange, pinsVersion }: LegendControlProps) {
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- read again for each new pin set
  const entries = useMemo(() => legendEntries(adapter.getPins(), adapter.getPinStyles(), adapter.getCategoryCounts()), [adapter, pinsVersion]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- read again for each new pin set
  const others = useMemo(() => uncategorisedCount(adapter.getPins(), adapter.getCategoryCounts(), adapter.getArchive()?.metadata.count), [adapter, pinsVersion]);
  if (entries.length === 0 && !others) return null;

  const toggle = (category: string, shown: boolean) => {
    onHiddenChange(shown ? hidden.filter((c) => c !== category) : [...hidden, category]);
  };
  const title = locale['Legend.Title'];
  return (
    <div className="pinmap-ctrl pinmap-legend" data-state={open ? 'open' : 'closed'}>
      <PanelButton buttonRef={button} className="pinmap-legend-button" label={locale['Legend.Show']} open={open} panelId={panelId} onClick={() => onOpenChange(!open)}>
        <LegendIcon />
      </PanelButton>
      {open && (
        <fieldset
          id={panelId}
          className="pinmap-panel pinmap-legend-panel"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            onOpenChange(false);
            button.current?.focus();
          }}
        >
          <legend className="pinmap-panel-title">{title}</legend>
          <ul className="pinmap-legend-items">
            {entries.map((entry) => {
              const shown = !hidden.includes(entry.category);
              return (
                <li key={entry.category}>
                  <label className="pinmap-legend-entry" data-category={entry.category} data-hidden={!shown}>
                    <input type="checkbox" checked={shown} onChange={(event) => toggle(entry.category, event.target.checked)} />
                    <PinSwatch options={entry.options} />
                    <span className="pinmap-legend-name">{entry.category}</span>
                    {/* A count not known (an archive made before archives kept counts) is left out. */}
                    {entry.count !== undefined && (
                      <>
                        <span className="pinmap-legend-count" aria-hidden="true">
                          {entry.count.toLocaleString('en-US')}
                        </span>
                        <span className="pinmap-visually-hidden">{countText(locale, entry.count, 'Legend.Count', 'Legend.CountOne')}</span>
                      </>
                    )}
                  </label>
                </li>
              );
            })}
            {others ? (
              // Pins without a category: no filter hides them, so no checkbox.
              <li>
                <span className="pinmap-legend-entry" data-uncategorised="">
                  <span className="pinmap-legend-nocheck" aria-hidden="true" />
                  <PinSwatch options={NO_OPTIONS} />
                  <span className="pinmap-legend-name">{locale[entries.length === 0 ? 'Legend.AllPins' : 'Legend.Uncategorised']}</span>
                  <span className="pinmap-legend-count" aria-hidden="true">
                    {others.toLocaleString('en-US')}
                  </span>
                  <span className="pinmap-visually-hidden">{countText(locale, others, 'Legend.Count', 'Legend.CountOne')}</span>
                </span>
              </li>
            ) : null}
          </ul>
        </fieldset>
      )}
    </div>
  );
}

/** The default pin's options: pins without a category are drawn so. */
const NO_OPTIONS: Readonly<PinOptions> = {};

/** A category's pin, drawn small by the function that draws the map's pins. */
function PinSwatch({ options }: { options: Readonly<PinOptions> }) {
  const holder = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const pin = createPinElement(resolvePinStyle(options));
    element.replaceChildren(pin);
    return () => pin.remove();
  }, [options]);
  return <span ref={holder} className="pinmap-legend-swatch" aria-hidden="true" />;
}
