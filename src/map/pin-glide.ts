/**
 * Pins that move (README, "Pins that move"): a pin moved by an update glides from where it was
 * to its new place, one frame at a time, and whatever follows it (its marker, its open popup)
 * is told each step. Both views' pin layers use it.
 */
import { prefersReducedMotion } from './reduced-motion.ts';

/** Where a pin is: [longitude, latitude]. */
type LngLat = readonly [number, number];

/**
 * How long a glide lasts: `configured` ms (config `pinTransition`), or the time since the last
 * update when updates come faster (a pin reaches each place before it moves on), and 0 (a jump)
 * when the user prefers reduced motion.
 */
export function glideLength(configured: number, sinceLastUpdate: number | undefined, reducedMotion: boolean): number {
  if (reducedMotion || configured <= 0) return 0;
  return sinceLastUpdate === undefined ? configured : Math.max(0, Math.min(configured, sinceLastUpdate));
}

/** The point a share `t` (0..1) of the way from `from` to `to`, the short way round the world (across ±180° where that is nearer). */
export function between(from: LngLat, to: LngLat, t: number): [number, number] {
  let dLng = to[0] - from[0];
  if (dLng > 180) dLng -= 360;
  else if (dLng < -180) dLng += 360;
  return [from[0] + dLng * t, from[1] + (to[1] - from[1]) * t];
}

/** Eases out: quick at the start, slowing to rest (a cubic). */
const easeOut = (t: number) => 1 - (1 - t) ** 3;

/** One pin's glide: from `from` to `to` over `duration` ms from `began`; `at` is where it is drawn now. */
interface Glide {
  at: [number, number];
  from: [number, number];
  to: LngLat;
  began: number;
  duration: number;
  step: (lngLat: [number, number]) => void;
}

/**
 * The glides under way, by pin id. `move` starts one (ending that pin's glide under way where it
 * is, so the next starts from there); each frame calls its `step` with the pin's place, the last
 * with `to` itself. All glides step in one animation frame callback, however many pins move.
 */
export class PinGlides {
  private readonly glides = new Map<string, Glide>();
  private last: number | undefined;
  private frame = 0;

  constructor(
    /** Config `pinTransition`, in ms. */
    private readonly configured: number,
  ) {}

  /** How long the glides of an update starting now last (see `glideLength`); call once per update. */
  lengthNow(): number {
    const now = performance.now();
    const since = this.last === undefined ? undefined : now - this.last;
    this.last = now;
    return glideLength(this.configured, since, prefersReducedMotion());
  }

  /** Where the pin is drawn now: mid-glide, or undefined when it is not gliding. */
  placeOf(id: string): [number, number] | undefined {
    return this.glides.get(id)?.at;
  }

  /** Whether the pin is gliding. */
  has(id: string): boolean {
    return this.glides.has(id);
  }

  /** Glides the pin from `from` (or where its glide under way has it) to `to` over `duration` ms; 0 steps there at once. */
  move(id: string, from: LngLat, to: LngLat, duration: number, step: (lngLat: [number, number]) => void): void {
    const start: [number, number] = this.glides.get(id)?.at ?? [from[0], from[1]];
    this.stop(id);
    if (duration <= 0 || (start[0] === to[0] && start[1] === to[1])) {
      step([to[0], to[1]]);
      return;
    }
    this.glides.set(id, { at: start, from: start, to, began: performance.now(), duration, step });
    if (this.frame === 0) this.frame = requestAnimationFrame(this.tick);
  }

  /** Ends the pin's glide where it is now (its marker stays there). */
  stop(id: string): void {
    this.glides.delete(id);
    if (this.glides.size === 0) this.cancelFrame();
  }

  /** Ends every glide where it is. */
  stopAll(): void {
    this.glides.clear();
    this.cancelFrame();
  }

  /** A frame: every glide steps to its place of `now`; those that arrived end. */
  private readonly tick = (now: number) => {
    this.frame = 0;
    for (const [id, glide] of this.glides) {
      const t = Math.min(1, (now - glide.began) / glide.duration);
      glide.at = t >= 1 ? [glide.to[0], glide.to[1]] : between(glide.from, glide.to, easeOut(t));
      glide.step(glide.at);
      if (t >= 1 && this.glides.get(id) === glide) this.glides.delete(id);
    }
    if (this.glides.size > 0 && this.frame === 0) this.frame = requestAnimationFrame(this.tick);
  };

  private cancelFrame(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }
}
