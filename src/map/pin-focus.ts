/**
 * Where the keyboard's focus goes among the pins and bubbles of a map, in either view: the
 * reading order of points (rows, north to south, and west to east in a row), the nearest point in
 * an arrow's direction, the row above or below (Page Up, Page Down), and the nearest point to a
 * place. Pure: points are plain x and y (CSS px, y down), whatever engine placed them.
 */

/** The height of a row of the reading order, CSS px. */
export const ROW_PX = 64;

/** A point to take the focus: x and y in CSS px, y down (the screen's, or a whole zoom's world pixels). */
export interface FocusPoint {
  x: number;
  y: number;
}

/** A move of the focus within the pins: an arrow, Home, End, Page Up or Page Down. */
export type FocusMove = 'left' | 'right' | 'up' | 'down' | 'first' | 'last' | 'rowUp' | 'rowDown';

/** The move a key makes, if it is one of the pins' keys. */
export function moveOfKey(key: string): FocusMove | undefined {
  return KEY_MOVES[key];
}

const KEY_MOVES: Record<string, FocusMove | undefined> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Home: 'first',
  End: 'last',
  PageUp: 'rowUp',
  PageDown: 'rowDown',
};

/** A point's row of the reading order. */
export function rowOf(point: FocusPoint, rowPx = ROW_PX): number {
  return Math.floor(point.y / rowPx);
}

/**
 * Compares two points in reading order: the upper row first, then the one further west in a row,
 * then the one further north (y), as a page is read.
 */
export function compareReading(a: FocusPoint, b: FocusPoint, rowPx = ROW_PX): number {
  return rowOf(a, rowPx) - rowOf(b, rowPx) || a.x - b.x || a.y - b.y;
}

/** The indices of `points` in reading order (`compareReading`). */
export function readingOrderOf(points: readonly FocusPoint[], rowPx = ROW_PX): number[] {
  return points.map((_, i) => i).sort((i, j) => compareReading(points[i]!, points[j]!, rowPx) || i - j);
}

/** The index of the point nearest `to` (straight-line distance), or undefined for none. */
export function nearestTo(points: readonly FocusPoint[], to: FocusPoint): number | undefined {
  let best: number | undefined;
  let bestDistance = Infinity;
  points.forEach((point, i) => {
    const distance = Math.hypot(point.x - to.x, point.y - to.y);
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}

/**
 * Where a move from `points[from]` goes: the index of the point it reaches, or undefined when
 * there is none that way (the focus stays).
 * - An arrow: the nearest point in its direction, those within 45° of it first (then any ahead of
 *   the point on that side), a point off the line counted at twice its distance across.
 * - Home and End: the first and the last point in reading order.
 * - Page Up and Page Down: in the nearest row above or below that has a point, the one nearest
 *   across (x).
 */
export function nextFocus(points: readonly FocusPoint[], from: number, move: FocusMove, rowPx = ROW_PX): number | undefined {
  if (points.length === 0) return undefined;
  if (move === 'first' || move === 'last') {
    const order = readingOrderOf(points, rowPx);
    return move === 'first' ? order[0] : order[order.length - 1];
  }
  const origin = points[from];
  if (!origin) return undefined;
  if (move === 'rowUp' || move === 'rowDown') return nextRow(points, from, move === 'rowDown' ? 1 : -1, rowPx);
  const [ax, ay] = AXES[move];
  let best: number | undefined;
  let bestScore = Infinity;
  let bestInCone = false;
  points.forEach((point, i) => {
    if (i === from) return;
    const dx = point.x - origin.x;
    const dy = point.y - origin.y;
    // Distance along the arrow, and across it.
    const along = dx * ax + dy * ay;
    const across = Math.abs(dx * ay - dy * ax);
    if (along <= 0) return;
    const inCone = across <= along;
    const score = along + 2 * across;
    if ((inCone && !bestInCone) || (inCone === bestInCone && score < bestScore)) {
      best = i;
      bestScore = score;
      bestInCone = inCone;
    }
  });
  return best;
}

/** Each arrow's direction, as a unit vector with y down. */
const AXES: Record<'left' | 'right' | 'up' | 'down', [number, number]> = {
  left: [-1, 0],
  right: [1, 0],
  up: [0, -1],
  down: [0, 1],
};

/** Page Up (`step` -1) or Page Down (1): the nearest point across in the nearest row that way with a point. */
function nextRow(points: readonly FocusPoint[], from: number, step: 1 | -1, rowPx: number): number | undefined {
  const origin = points[from]!;
  const row = rowOf(origin, rowPx);
  let targetRow: number | undefined;
  points.forEach((point) => {
    const r = rowOf(point, rowPx);
    if ((r - row) * step <= 0) return;
    if (targetRow === undefined || (r - targetRow) * step < 0) targetRow = r;
  });
  if (targetRow === undefined) return undefined;
  let best: number | undefined;
  let bestDistance = Infinity;
  points.forEach((point, i) => {
    if (rowOf(point, rowPx) !== targetRow) return;
    const distance = Math.abs(point.x - origin.x);
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}

/**
 * Which of the points a bubble split into after its zoom: those within `radius` of where the
 * bubble now stands (`at`), in reading order; when none is that near, the one nearest it alone.
 */
export function splitInto(points: readonly FocusPoint[], at: FocusPoint, radius: number, rowPx = ROW_PX): number[] {
  const near = points.flatMap((point, i) => (Math.hypot(point.x - at.x, point.y - at.y) <= radius ? [i] : []));
  if (near.length > 0) return near.sort((i, j) => compareReading(points[i]!, points[j]!, rowPx) || i - j);
  const nearest = nearestTo(points, at);
  return nearest === undefined ? [] : [nearest];
}
