import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { attributionMachine, isAttributionCompact, isAttributionOpen } from './attribution.machine.ts';

function start(width: number) {
  const actor = createActor(attributionMachine, { input: { width } }).start();
  const look = () => {
    const snapshot = actor.getSnapshot();
    return { compact: isAttributionCompact(snapshot), open: isAttributionOpen(snapshot) };
  };
  const resize = (to: number) => actor.send({ type: 'container.resized', width: to });
  const drag = () => actor.send({ type: 'map.userDragged' });
  const toggle = () => actor.send({ type: 'attribution.toggle' });
  return { actor, look, resize, drag, toggle };
}

describe('attribution machine', () => {
  it('is compact and open at 640 px', () => {
    const a = start(640);
    expect(a.actor.getSnapshot().value).toEqual({ compact: 'expanded' });
    expect(a.look()).toEqual({ compact: true, open: true });
  });

  it('is full and open at 641 px', () => {
    const a = start(641);
    expect(a.actor.getSnapshot().value).toBe('full');
    expect(a.look()).toEqual({ compact: false, open: true });
  });

  it('goes compact+open, full+open, compact+open as the container goes 640 → 641 → 640', () => {
    const a = start(640);
    expect(a.look()).toEqual({ compact: true, open: true });
    a.resize(641);
    expect(a.look()).toEqual({ compact: false, open: true });
    a.resize(640);
    expect(a.look()).toEqual({ compact: true, open: true });
  });

  it('collapses on the first drag of the map, and further drags change nothing', () => {
    const a = start(400);
    a.drag();
    expect(a.actor.getSnapshot().value).toEqual({ compact: 'collapsed' });
    expect(a.look()).toEqual({ compact: true, open: false });
    a.drag();
    expect(a.look()).toEqual({ compact: true, open: false });
  });

  it('opens and closes with the toggle', () => {
    const a = start(400);
    a.drag();
    a.toggle();
    expect(a.actor.getSnapshot().value).toEqual({ compact: 'opened' });
    expect(a.look().open).toBe(true);
    a.toggle();
    expect(a.look().open).toBe(false);
    a.toggle();
    expect(a.look().open).toBe(true);
  });

  it('closes with the toggle while it is still shown from becoming compact', () => {
    const a = start(400);
    a.toggle();
    expect(a.look()).toEqual({ compact: true, open: false });
  });

  it('stays open when the user drags after opening it with the toggle', () => {
    const a = start(400);
    a.drag();
    a.toggle();
    a.drag();
    expect(a.look()).toEqual({ compact: true, open: true });
  });

  it('keeps its compact state through resizes that stay at 640 px or less', () => {
    const a = start(600);
    a.drag();
    a.resize(320);
    a.resize(640);
    expect(a.look()).toEqual({ compact: true, open: false });
  });

  it('is open in full whatever happened while compact, and shows expanded again on becoming compact', () => {
    const a = start(500);
    a.drag();
    a.resize(1024);
    expect(a.look()).toEqual({ compact: false, open: true });
    a.resize(500);
    expect(a.actor.getSnapshot().value).toEqual({ compact: 'expanded' });
    a.drag();
    expect(a.look().open).toBe(false);
  });

  it('has no toggle and ignores drags in full', () => {
    const a = start(1024);
    expect(a.actor.getSnapshot().can({ type: 'attribution.toggle' })).toBe(false);
    a.toggle();
    a.drag();
    expect(a.actor.getSnapshot().value).toBe('full');
    expect(a.look()).toEqual({ compact: false, open: true });
  });

  it('offers the toggle in every compact state', () => {
    const a = start(400);
    expect(a.actor.getSnapshot().can({ type: 'attribution.toggle' })).toBe(true);
    a.drag();
    expect(a.actor.getSnapshot().can({ type: 'attribution.toggle' })).toBe(true);
    a.toggle();
    expect(a.actor.getSnapshot().can({ type: 'attribution.toggle' })).toBe(true);
  });

  it('records the latest width', () => {
    const a = start(800);
    a.resize(700);
    expect(a.actor.getSnapshot().context.width).toBe(700);
    expect(a.look()).toEqual({ compact: false, open: true });
  });
});
