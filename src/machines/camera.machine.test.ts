import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { cameraMachine } from './camera.machine.ts';
import type { CameraAnimation, CameraEvent, CameraInput } from './camera.machine.ts';
import type { LngLatBounds } from './geo.ts';

const BOUNDS: LngLatBounds = [
  [19.99, 9.99],
  [20.01, 10.01],
];

function start(input: Partial<CameraInput> = {}) {
  const clock = new SimulatedClock();
  const map = {
    run: vi.fn<(animation: CameraAnimation) => void>(),
    stop: vi.fn<(id: number) => void>(),
  };
  const machine = cameraMachine.provide({
    actions: {
      runCameraAnimation: (_, animation) => map.run(animation),
      stopCameraAnimation: (_, params) => map.stop(params.id),
    },
  });
  const actor = createActor(machine, { clock, input: { reducedMotion: false, ...input } }).start();
  const send = (event: CameraEvent) => actor.send(event);
  const state = () => actor.getSnapshot().value;
  const context = () => actor.getSnapshot().context;
  /** The id of the animation running now. */
  const currentId = () => {
    const id = context().current?.id;
    if (id === undefined) throw new Error('no animation is running');
    return id;
  };
  return { actor, clock, map, send, state, context, currentId };
}

describe('camera machine: commands', () => {
  it('starts idle', () => {
    const c = start();
    expect(c.state()).toBe('idle');
    expect(c.context().current).toBeUndefined();
    expect(c.map.run).not.toHaveBeenCalled();
  });

  it.each([
    [{ type: 'camera.zoomIn' }, { kind: 'zoomIn', duration: 500 }],
    [{ type: 'camera.zoomOut' }, { kind: 'zoomOut', duration: 500 }],
    [{ type: 'camera.resetNorth' }, { kind: 'resetNorth', duration: 1000 }],
    [{ type: 'camera.fitTo', bounds: BOUNDS }, { kind: 'fitToLocation', duration: 500, bounds: BOUNDS, maxZoom: 15 }],
    [{ type: 'camera.fitTo', bounds: BOUNDS, maxZoom: 12 }, { kind: 'fitToLocation', duration: 500, bounds: BOUNDS, maxZoom: 12 }],
    [{ type: 'camera.flyTo', center: [2.35, 48.85], zoom: 14 }, { kind: 'flyToPin', duration: 1500, center: [2.35, 48.85], zoom: 14 }],
    [{ type: 'camera.flyTo', center: [2.35, 48.85] }, { kind: 'flyToPin', duration: 1500, center: [2.35, 48.85], zoom: undefined }],
  ] as [CameraEvent, Omit<CameraAnimation, 'id'>][])('runs %o as %o', (command, expected) => {
    const c = start();
    c.send(command);
    expect(c.state()).toBe('animating');
    expect(c.map.run).toHaveBeenCalledTimes(1);
    expect(c.map.run).toHaveBeenCalledWith({ id: 1, ...expected });
    expect(c.context().current).toEqual({ id: 1, ...expected });
  });

  it('numbers the animations one after the other', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.send({ type: 'map.animationEnded', id: 1 });
    c.send({ type: 'camera.zoomOut' });
    expect(c.currentId()).toBe(2);
  });
});

describe('camera machine: how an animation finishes', () => {
  it('ends when the map reports the end of this animation, not when its duration has passed', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.clock.increment(500);
    expect(c.state()).toBe('animating');
    c.send({ type: 'map.animationEnded', id: 1 });
    expect(c.state()).toBe('idle');
    expect(c.context().current).toBeUndefined();
    expect(c.context().last).toEqual({ id: 1, kind: 'zoomIn', outcome: 'ended' });
  });

  it('ignores the end of an older animation', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.send({ type: 'camera.zoomIn' });
    c.send({ type: 'map.animationEnded', id: 1 });
    expect(c.state()).toBe('animating');
    expect(c.currentId()).toBe(2);
  });

  it('ignores an end report while idle', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.send({ type: 'map.animationEnded', id: 1 });
    c.send({ type: 'map.animationEnded', id: 1 });
    expect(c.state()).toBe('idle');
    expect(c.context().last?.outcome).toBe('ended');
  });

  it('is interrupted by a user gesture, without stopping the map (the gesture already has)', () => {
    const c = start();
    c.send({ type: 'camera.resetNorth' });
    c.clock.increment(300);
    c.send({ type: 'map.userGesture' });
    expect(c.state()).toBe('idle');
    expect(c.context().last).toEqual({ id: 1, kind: 'resetNorth', outcome: 'interrupted' });
    expect(c.map.stop).not.toHaveBeenCalled();
    c.send({ type: 'map.animationEnded', id: 1 });
    expect(c.context().last?.outcome).toBe('interrupted');
  });

  it('is interrupted when the map reports that it stopped this animation early', () => {
    const c = start();
    c.send({ type: 'camera.zoomOut' });
    c.send({ type: 'map.animationStopped', id: 1 });
    expect(c.state()).toBe('idle');
    expect(c.context().last).toEqual({ id: 1, kind: 'zoomOut', outcome: 'interrupted' });
    c.send({ type: 'map.userGesture' });
    expect(c.context().last?.outcome).toBe('interrupted');
  });

  it('ignores an early stop of an older animation', () => {
    const c = start();
    c.send({ type: 'camera.zoomOut' });
    c.send({ type: 'camera.zoomIn' });
    c.send({ type: 'map.animationStopped', id: 1 });
    expect(c.state()).toBe('animating');
    expect(c.currentId()).toBe(2);
  });

  it('takes no note of a user gesture while idle', () => {
    const c = start();
    c.send({ type: 'map.userGesture' });
    expect(c.state()).toBe('idle');
    expect(c.context().last).toBeUndefined();
  });

  it('is replaced by a new command, which runs in its place', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.send({ type: 'camera.flyTo', center: [10, 50] });
    expect(c.state()).toBe('animating');
    expect(c.context().last).toEqual({ id: 1, kind: 'zoomIn', outcome: 'replaced' });
    expect(c.map.run).toHaveBeenCalledTimes(2);
    expect(c.map.run).toHaveBeenLastCalledWith(expect.objectContaining({ id: 2, kind: 'flyToPin' }));
    c.send({ type: 'map.animationEnded', id: 2 });
    expect(c.context().last).toEqual({ id: 2, kind: 'flyToPin', outcome: 'ended' });
  });

  it('gives up waiting for the end after the duration plus 1000 ms, stopping the animation', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.clock.increment(1499);
    expect(c.state()).toBe('animating');
    expect(c.map.stop).not.toHaveBeenCalled();
    c.clock.increment(1);
    expect(c.state()).toBe('idle');
    expect(c.map.stop).toHaveBeenCalledWith(1);
    expect(c.context().last).toEqual({ id: 1, kind: 'zoomIn', outcome: 'timedOut' });
  });

  it('lets a map that draws slowly finish: each frame of the animation starts the wait again, and it is run once', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    // Frames 800 ms apart (a busy device): the zoom lasts 2.4 s, past its 500 ms and the 1000 ms grace.
    for (let frame = 0; frame < 3; frame++) {
      c.clock.increment(800);
      c.send({ type: 'map.animationProgressed', id: 1 });
    }
    expect(c.state()).toBe('animating');
    expect(c.map.stop).not.toHaveBeenCalled();
    expect(c.map.run).toHaveBeenCalledTimes(1);
    c.send({ type: 'map.animationEnded', id: 1 });
    expect(c.context().last).toEqual({ id: 1, kind: 'zoomIn', outcome: 'ended' });
  });

  it('gives up the duration plus 1000 ms after the last frame, and a frame of an older animation does not count', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.clock.increment(200);
    c.send({ type: 'map.animationProgressed', id: 1 });
    c.send({ type: 'camera.zoomOut' });
    c.clock.increment(1000);
    c.send({ type: 'map.animationProgressed', id: 1 });
    c.clock.increment(499);
    expect(c.state()).toBe('animating');
    c.clock.increment(1);
    expect(c.map.stop).toHaveBeenCalledWith(2);
    expect(c.context().last).toEqual({ id: 2, kind: 'zoomOut', outcome: 'timedOut' });
  });

  it('waits longer for longer animations', () => {
    const c = start();
    c.send({ type: 'camera.flyTo', center: [10, 50] });
    c.clock.increment(2499);
    expect(c.state()).toBe('animating');
    c.clock.increment(1);
    expect(c.state()).toBe('idle');
  });

  it('starts a fresh wait for a replacing animation', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.clock.increment(1000);
    c.send({ type: 'camera.resetNorth' });
    c.clock.increment(1999);
    expect(c.state()).toBe('animating');
    expect(c.map.stop).not.toHaveBeenCalled();
    c.clock.increment(1);
    expect(c.state()).toBe('idle');
    expect(c.map.stop).toHaveBeenCalledWith(2);
  });

  it('cancels the wait once the end is reported', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.send({ type: 'map.animationEnded', id: 1 });
    c.clock.increment(5000);
    expect(c.map.stop).not.toHaveBeenCalled();
    expect(c.context().last?.outcome).toBe('ended');
  });
});

describe('camera machine: reduced motion', () => {
  it.each([
    { type: 'camera.zoomIn' },
    { type: 'camera.zoomOut' },
    { type: 'camera.resetNorth' },
    { type: 'camera.fitTo', bounds: BOUNDS },
    { type: 'camera.flyTo', center: [10, 50] },
  ] as CameraEvent[])('makes %o instant', (command) => {
    const c = start({ reducedMotion: true });
    c.send(command);
    expect(c.map.run).toHaveBeenCalledWith(expect.objectContaining({ duration: 0 }));
  });

  it('makes the snap to north instant', () => {
    const c = start({ reducedMotion: true });
    c.send({ type: 'map.rotateEnded', bearing: 3, byUser: true });
    expect(c.map.run).toHaveBeenCalledWith(expect.objectContaining({ kind: 'snapNorth', duration: 0 }));
  });

  it('still waits for the map to report the end of an instant animation, for up to 1000 ms', () => {
    const c = start({ reducedMotion: true });
    c.send({ type: 'camera.zoomIn' });
    expect(c.state()).toBe('animating');
    c.send({ type: 'map.animationEnded', id: 1 });
    expect(c.state()).toBe('idle');
    c.send({ type: 'camera.zoomIn' });
    c.clock.increment(999);
    expect(c.state()).toBe('animating');
    c.clock.increment(1);
    expect(c.state()).toBe('idle');
  });

  it('follows a change of the preference from the next animation on', () => {
    const c = start();
    c.send({ type: 'camera.zoomIn' });
    c.send({ type: 'camera.setReducedMotion', reduce: true });
    expect(c.context().current?.duration).toBe(500);
    c.send({ type: 'camera.zoomOut' });
    expect(c.context().current?.duration).toBe(0);
    c.send({ type: 'camera.setReducedMotion', reduce: false });
    c.send({ type: 'camera.zoomIn' });
    expect(c.context().current?.duration).toBe(500);
  });
});

describe('camera machine: snapping to north', () => {
  it.each([6.9, -6.9, 0.5, 354, -354])('snaps a user rotation that ends at %d° to north, eased over 1000 ms', (bearing) => {
    const c = start();
    c.send({ type: 'map.rotateEnded', bearing, byUser: true });
    expect(c.state()).toBe('animating');
    expect(c.map.run).toHaveBeenCalledWith({ id: 1, kind: 'snapNorth', duration: 1000 });
  });

  it.each([0, 7, -7, 353, 45, 180])('leaves a user rotation that ends at %d° alone', (bearing) => {
    const c = start();
    c.send({ type: 'map.rotateEnded', bearing, byUser: true });
    expect(c.state()).toBe('idle');
    expect(c.map.run).not.toHaveBeenCalled();
  });

  it('leaves rotations the user did not make alone', () => {
    const c = start();
    c.send({ type: 'map.rotateEnded', bearing: 3, byUser: false });
    expect(c.state()).toBe('idle');
  });

  it('uses the configured snap angle, and 0 turns snapping off', () => {
    const wide = start({ bearingSnap: 10 });
    wide.send({ type: 'map.rotateEnded', bearing: 9, byUser: true });
    expect(wide.state()).toBe('animating');
    const off = start({ bearingSnap: 0 });
    off.send({ type: 'map.rotateEnded', bearing: 1, byUser: true });
    expect(off.state()).toBe('idle');
  });

  it('knows when the snap ended', () => {
    const c = start();
    c.send({ type: 'map.rotateEnded', bearing: 4, byUser: true });
    c.send({ type: 'map.animationEnded', id: 1 });
    expect(c.context().last).toEqual({ id: 1, kind: 'snapNorth', outcome: 'ended' });
  });
});

describe('camera machine: without the app', () => {
  it('is inert: the bare machine runs nothing and still times out', () => {
    const clock = new SimulatedClock();
    const actor = createActor(cameraMachine, { clock, input: { reducedMotion: false } }).start();
    actor.send({ type: 'camera.zoomIn' });
    clock.increment(1500);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.last?.outcome).toBe('timedOut');
  });
});
