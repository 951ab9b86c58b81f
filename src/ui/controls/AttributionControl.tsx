import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState, type RefObject } from 'react';
import { attributionMachine, isAttributionCompact, isAttributionOpen } from '../../machines/attribution.machine.ts';
import type { MapAdapter } from '../../map/adapter.ts';
import type { Locale } from '../../config/locale.ts';
import { inspectOptions } from '../inspect.ts';
import { attributionParts, gatherAttributions } from './attribution-text.ts';
import { InfoIcon } from './icons.tsx';
import { stateName } from './state-name.ts';

const NO_CUSTOM: readonly string[] = [];

/**
 * The map's credits, gathered from every source a visible layer uses (and `custom` ones first),
 * shown as text and http(s) links only. Its machine makes it compact when the map is 640 px wide
 * or less: open at first, closed by the user's first drag, toggled by the ⓘ button.
 */
export function AttributionControl({ adapter, root, locale, custom = NO_CUSTOM }: { adapter: MapAdapter; root: RefObject<HTMLElement | null>; locale: Locale; custom?: readonly string[] }) {
  // The machine takes the width once, when it starts: read at the first render only, as reading
  // it lays the page out, which costs a page of many pins (hybrid markers) on every render.
  const [startWidth] = useState(() => root.current?.clientWidth ?? Infinity);
  const actor = useActorRef(attributionMachine, { input: { width: startWidth }, ...inspectOptions() });
  const state = useSelector(actor, (s) => stateName(s.value));
  const open = useSelector(actor, isAttributionOpen);
  const compact = useSelector(actor, isAttributionCompact);
  const credits = useCredits(adapter, custom);

  useEffect(() => {
    const element = root.current;
    if (!element) return;
    const observer = new ResizeObserver(() => actor.send({ type: 'container.resized', width: element.clientWidth }));
    observer.observe(element);
    actor.send({ type: 'container.resized', width: element.clientWidth });
    return () => observer.disconnect();
  }, [actor, root]);

  useEffect(
    () =>
      adapter.onMotion((event) => {
        if (event.type === 'user.gesture' && event.gesture === 'drag') actor.send({ type: 'map.userDragged' });
      }),
    [adapter, actor],
  );

  const title = locale['AttributionControl.ToggleAttribution'];
  return (
    <div className="pinmap-ctrl pinmap-attrib" data-state={state} data-compact={compact} data-open={open} data-empty={credits.length === 0}>
      {compact && (
        <button type="button" className="pinmap-attrib-button" title={title} aria-label={title} aria-expanded={open} onClick={() => actor.send({ type: 'attribution.toggle' })}>
          <InfoIcon />
        </button>
      )}
      <div className="pinmap-attrib-text" hidden={!open}>
        {credits.map((credit, i) => (
          <span key={credit}>
            {i > 0 && ' | '}
            {attributionParts(credit).map((part, j) =>
              part.href ? (
                <a key={j} href={part.href} target="_blank" rel="noopener noreferrer">
                  {part.text}
                </a>
              ) : (
                part.text
              ),
            )}
          </span>
        ))}
      </div>
    </div>
  );
}

/** The gathered credits, re-read whenever the adapter says they may have changed; same list, same array. */
function useCredits(adapter: MapAdapter, custom: readonly string[]): string[] {
  const [credits, setCredits] = useState<string[]>([]);
  useEffect(() => {
    const read = () => {
      const next = gatherAttributions(custom, adapter.getAttributions());
      setCredits((previous) => (previous.join('\n') === next.join('\n') ? previous : next));
    };
    read();
    return adapter.onAttributionsChange(read);
  }, [adapter, custom]);
  return credits;
}
