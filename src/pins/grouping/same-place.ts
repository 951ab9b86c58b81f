/**
 * Same-place pins, engine-free: which pins drawn at a zoom stand at one spot (so close that one
 * hides the others), and where each goes when the spot fans out (a circle, or a spiral for
 * many), in screen pixels from the spot. Both views draw the fan (`map/pin-fan-out.ts`); the
 * numbers are in CSS px, whatever the engine's zoom.
 */

/** A pin drawn on the screen: its id and where its tip is (CSS px). */
export interface PlacedPin {
  id: string;
  point: readonly [number, number];
}

/**
 * How close two pins' tips stand to be at one spot (CSS px): within a pin's width, one pin's head
 * covers the other's (`PIN_WIDTH` of pins/icon.ts).
 */
export const SPOT_RADIUS_PX = 32;

/** Up to this many pins fan out on a circle; more, on a spiral. */
export const CIRCLE_MAX = 8;

/** Room between the tips of neighbouring fanned pins, along the circle or the spiral (CSS px): a pin is 32 px wide and 52 tall, so side by side or one above the other they stand clear. */
export const FAN_SEPARATION_PX = 60;

/** The least radius of the circle (CSS px): pins above and below the spot stand clear of each other. */
export const FAN_MIN_RADIUS_PX = 56;

/** Where the circle and the spiral start: straight up from the spot, going clockwise. */
const START_ANGLE = -Math.PI / 2;

/**
 * The pins at the spot of the pin `at` (itself first, then the others by distance, nearer
 * first; equal distances in the order given): every pin whose tip is within `radius` px of its
 * tip. A pin alone at its spot gives a list of one.
 */
export function pinsAtSpot<P extends PlacedPin>(pins: readonly P[], at: string, radius = SPOT_RADIUS_PX): P[] {
  const centre = pins.find((pin) => pin.id === at);
  if (!centre) return [];
  const [x, y] = centre.point;
  const near: { pin: P; distance: number; order: number }[] = [];
  pins.forEach((pin, order) => {
    if (pin.id === at) return;
    const distance = Math.hypot(pin.point[0] - x, pin.point[1] - y);
    if (distance <= radius) near.push({ pin, distance, order });
  });
  near.sort((a, b) => a.distance - b.distance || a.order - b.order);
  const seen = new Set([at]);
  const spot = [centre];
  for (const { pin } of near) {
    if (seen.has(pin.id)) continue; // a pin drawn on two copies of the world counts once
    seen.add(pin.id);
    spot.push(pin);
  }
  return spot;
}

/**
 * Where each of `count` fanned pins' tips goes, as [dx, dy] CSS px from the spot (y down): up
 * to `CIRCLE_MAX` evenly on a circle big enough for `FAN_SEPARATION_PX` between neighbours (at
 * least `FAN_MIN_RADIUS_PX`), starting straight up and going clockwise; more on an Archimedean
 * spiral out from the spot, the same room between neighbours along it.
 */
export function fanPositions(count: number): [number, number][] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`fanPositions: the count must be a whole number of pins (got ${count})`);
  if (count <= CIRCLE_MAX) {
    const radius = Math.max(FAN_MIN_RADIUS_PX, (count * FAN_SEPARATION_PX) / (2 * Math.PI));
    return Array.from({ length: count }, (_, i) => polar(radius, START_ANGLE + (2 * Math.PI * i) / count));
  }
  // r = b·θ: one turn apart by a pin's height and a little more, so the rings never touch.
  const b = (FAN_SEPARATION_PX * 1.5) / (2 * Math.PI);
  const positions: [number, number][] = [];
  let angle = FAN_MIN_RADIUS_PX / b;
  for (let i = 0; i < count; i++) {
    positions.push(polar(b * angle, START_ANGLE + angle - FAN_MIN_RADIUS_PX / b));
    // The arc from here is about r·dθ: step so that it is the separation.
    angle += FAN_SEPARATION_PX / (b * angle);
  }
  return positions;
}

function polar(radius: number, angle: number): [number, number] {
  return [round(radius * Math.cos(angle)), round(radius * Math.sin(angle))];
}

const round = (value: number): number => Math.round(value * 100) / 100 || 0;
