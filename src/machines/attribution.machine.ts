import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { ATTRIBUTION_COMPACT_MAX_WIDTH } from './constants.ts';

/** What the app tells the attribution machine. */
export type AttributionEvent =
  /** The map's container changed size; width in CSS pixels. */
  | { type: 'container.resized'; width: number }
  /** The user dragged the map (not a programmatic move). */
  | { type: 'map.userDragged' }
  /** The toggle button was pressed. */
  | { type: 'attribution.toggle' };

export type AttributionInput = {
  /** The map container's width in CSS pixels when the control starts. */
  width: number;
};

/**
 * Whether the attribution is shown in full or compact, and whether a compact one is open,
 * mirrored on the control as `data-state` (`full`, `compact.expanded`, `compact.collapsed`,
 * `compact.opened`).
 *
 * - `full`: the map's container is wider than 640 px; the attribution is always open and has no
 *   toggle.
 * - `compact`: 640 px or narrower. It starts `expanded` each time the map becomes narrow, the
 *   user's first drag of the map collapses it (`collapsed`), and the toggle button opens
 *   (`opened`) and closes it. A drag does not close an attribution the user opened.
 *
 * The width comes from the input and every `container.resized`; crossing 640 px either way moves
 * between `full` and `compact`. Nothing is injected: the app sends the events and reads
 * `isAttributionOpen` / `isAttributionCompact` (or the tags `open` and `compact`).
 */
export const attributionMachine = setup({
  types: {
    input: {} as AttributionInput,
    context: {} as { width: number },
    events: {} as AttributionEvent,
    tags: {} as 'open' | 'compact',
  },
  actions: {
    recordWidth: assign({
      width: ({ event, context }) => (event.type === 'container.resized' ? event.width : context.width),
    }),
  },
  guards: {
    isNarrow: ({ context }) => context.width <= ATTRIBUTION_COMPACT_MAX_WIDTH,
    isWide: ({ context }) => context.width > ATTRIBUTION_COMPACT_MAX_WIDTH,
  },
}).createMachine({
  id: 'attribution',
  context: ({ input }) => ({ width: input.width }),
  initial: 'full',
  on: {
    'container.resized': { actions: 'recordWidth' },
  },
  states: {
    full: {
      tags: ['open'],
      always: { guard: 'isNarrow', target: 'compact' },
    },
    compact: {
      tags: ['compact'],
      always: { guard: 'isWide', target: 'full' },
      initial: 'expanded',
      states: {
        expanded: {
          description: 'Shown on its own on becoming compact, until the first drag or a toggle.',
          tags: ['open'],
          on: {
            'map.userDragged': 'collapsed',
            'attribution.toggle': 'collapsed',
          },
        },
        collapsed: {
          on: { 'attribution.toggle': 'opened' },
        },
        opened: {
          description: 'Opened by the user, so it stays open until the user closes it.',
          tags: ['open'],
          on: { 'attribution.toggle': 'collapsed' },
        },
      },
    },
  },
});

export type AttributionSnapshot = SnapshotFrom<typeof attributionMachine>;

/** Whether the attribution text is showing. */
export function isAttributionOpen(snapshot: AttributionSnapshot): boolean {
  return snapshot.hasTag('open');
}

/** Whether the attribution is in its compact form (with a toggle button). */
export function isAttributionCompact(snapshot: AttributionSnapshot): boolean {
  return snapshot.hasTag('compact');
}
