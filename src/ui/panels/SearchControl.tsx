import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { MapAdapter } from '../../map/adapter.ts';
import type { Locale } from '../../config/locale.ts';
import type { PinArchive } from '../../pins/types.ts';
import { reasonOf } from '../../config/errors.ts';
import { createPinSearch, firstLine, type SearchHit } from '../../pins/search.ts';
import { countText } from './locale-count.ts';
import { SearchIcon } from './panel-icons.tsx';
import type { ShowPin } from '../hooks/use-show-pin.ts';

/** The most results shown at once. */
export const SEARCH_LIMIT = 8;

export interface SearchControlProps {
  adapter: MapAdapter;
  locale: Locale;
  /** Categories the legend hides: their pins are not found. */
  hidden: readonly string[];
  /** Pin properties searched besides the title (config `searchFields`). */
  fields: readonly string[];
  showPin: ShowPin;
  /** Changes when a new pin set is on the map. */
  pinsVersion: number;
}

/**
 * What the search box shows: the results of a query (`query`, which may be one typed before the
 * text now in the box, while a pre-tiled archive's answer to that is on its way), how many pins
 * match and whether that count is exact; or why there are none to show.
 */
interface SearchAnswer {
  query: string;
  hits: SearchHit[];
  total: number;
  exact: boolean;
  /** The pins could not be searched: a pre-tiled archive without a search index, or one that could not be read. */
  problem?: 'Search.NoIndex' | 'Search.Failed';
}

/**
 * The answer to `query`: inline pins searched at once (`createPinSearch`, made when the box first
 * gets focus, and again for a new pin set or filter); pre-tiled pins through their archive's
 * search index, whose directory is read on that first focus and whose answers come later (an
 * answer to an older query is not shown once a newer one is in).
 */
function useSearchAnswer(adapter: MapAdapter, fields: readonly string[], hidden: readonly string[], pinsVersion: number, wanted: boolean, query: string): SearchAnswer | undefined {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- read again for each new pin set
  const archive = useMemo(() => adapter.getArchive(), [adapter, pinsVersion]);
  const index = useMemo(
    () => (wanted && !archive ? createPinSearch(adapter.getPins(), fields, new Set(hidden)) : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- made again for each new pin set
    [wanted, adapter, fields, hidden, pinsVersion, archive],
  );
  const inline = useMemo(() => (index && query.trim() !== '' ? { query, exact: true, ...index.search(query, SEARCH_LIMIT) } : undefined), [index, query]);

  const [archived, setArchived] = useState<{ archive: PinArchive; answer: SearchAnswer }>();
  useEffect(() => {
    if (wanted) archive?.search?.prepare();
  }, [wanted, archive]);
  useEffect(() => {
    const search = archive?.search;
    if (!archive || !search || query.trim() === '') return;
    let current = true;
    search.search(query, SEARCH_LIMIT, new Set(hidden)).then(
      (result) => current && setArchived({ archive, answer: { query, ...result } }),
      (error: unknown) => {
        console.error(`Pinmap: the search index of ${archive.url} could not be read: ${reasonOf(error)}`);
        if (current) setArchived({ archive, answer: { query, hits: [], total: 0, exact: true, problem: 'Search.Failed' } });
      },
    );
    return () => {
      current = false;
    };
  }, [archive, query, hidden]);
  if (!archive) return inline;
  if (query.trim() === '') return undefined;
  if (!archive.search) return { query, hits: [], total: 0, exact: true, problem: 'Search.NoIndex' };
  return archived?.archive === archive ? archived.answer : undefined;
}

/** What the status says of an answer: how many pins were found (at least, for a common word), or why none. */
function statusOf(answer: SearchAnswer | undefined, locale: Locale): string {
  if (answer === undefined) return '';
  if (answer.problem) return locale[answer.problem];
  if (answer.total === 0) return locale[answer.exact ? 'Search.NoResults' : 'Search.TypeMore'];
  if (!answer.exact) return locale['Search.ResultsAtLeast'].replace('{count}', answer.total.toLocaleString('en-US'));
  return countText(locale, answer.total, 'Search.Results', 'Search.ResultsOne');
}

/**
 * The search box: a combobox over the pins' titles and the fields config names, ignoring case
 * and diacritics (pre-tiled pins: their archive's search index, see `useSearchAnswer`).
 * ArrowDown and ArrowUp move through the results, Enter flies to the chosen pin and opens its
 * popup (focus goes back to the box when it closes), Escape closes the results, and a second
 * Escape clears the box. A polite status says how many pins were found.
 */
export function SearchControl({ adapter, locale, hidden, fields, showPin, pinsVersion }: SearchControlProps) {
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [wanted, setWanted] = useState(false);
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(-1);

  const result = useSearchAnswer(adapter, fields, hidden, pinsVersion, wanted, query);
  const hits: SearchHit[] = result?.hits ?? [];
  const showList = expanded && hits.length > 0;
  const current = active < hits.length ? active : -1;

  const pick = (hit: SearchHit, byKeyboard: boolean) => {
    setExpanded(false);
    setActive(-1);
    showPin(hit.pin.id, { byKeyboard, returnFocus: () => input.current?.focus({ preventScroll: true }) });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (hits.length === 0) return;
        setExpanded(true);
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // From the box (or a list just opened) to the first or last result; then round the list.
        setActive(!showList || current < 0 ? (step > 0 ? 0 : hits.length - 1) : (current + step + hits.length) % hits.length);
        return;
      }
      case 'Enter': {
        const hit = hits[current] ?? (showList ? hits[0] : undefined);
        if (!hit) return;
        event.preventDefault();
        pick(hit, true);
        return;
      }
      case 'Escape':
        if (showList) {
          setExpanded(false);
          setActive(-1);
        } else if (query !== '') {
          setQuery('');
        } else {
          return;
        }
        event.preventDefault();
        event.stopPropagation();
        return;
    }
  };

  const status = statusOf(result, locale);
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="pinmap-ctrl pinmap-search" data-state={showList ? 'open' : 'closed'}>
      <div className="pinmap-search-box">
        <SearchIcon />
        <input
          ref={input}
          type="text"
          className="pinmap-search-input"
          role="combobox"
          aria-label={locale['Search.Label']}
          placeholder={locale['Search.Placeholder']}
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && current >= 0 ? optionId(current) : undefined}
          autoComplete="off"
          spellCheck={false}
          value={query}
          onFocus={() => setWanted(true)}
          onChange={(event) => {
            setQuery(event.target.value);
            setExpanded(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setExpanded(false)}
        />
        {query !== '' && (
          <button
            type="button"
            className="pinmap-search-clear"
            aria-label={locale['Search.Clear']}
            title={locale['Search.Clear']}
            onClick={() => {
              setQuery('');
              input.current?.focus();
            }}
          >
            ×
          </button>
        )}
      </div>
      <ul id={listId} role="listbox" aria-label={locale['Search.Label']} className="pinmap-search-results" hidden={!showList} data-query={result?.query ?? query}>
        {showList &&
          hits.map((hit, i) => {
            const line = firstLine(hit.pin.description);
            return (
              <li
                key={hit.pin.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === current}
                className="pinmap-search-option"
                data-pin-id={hit.pin.id}
                // The box keeps focus: a press on an option must not blur it before the click.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(hit, false)}
              >
                <span className="pinmap-list-title">{hit.pin.title}</span>
                {(hit.pin.category !== undefined || line !== '') && (
                  <span className="pinmap-list-meta">
                    {hit.pin.category}
                    {hit.pin.category !== undefined && line !== '' && ' · '}
                    {line}
                  </span>
                )}
              </li>
            );
          })}
      </ul>
      {expanded && result?.total === 0 && <p className="pinmap-search-empty">{status}</p>}
      <p className="pinmap-visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}
