import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { DIAGRAM_DIR, renderDiagrams, toMermaid } from './machine-diagrams.ts';

describe('committed machine diagrams', () => {
  const rendered = renderDiagrams();

  it.each([...rendered.keys()])('docs/machines/%s matches its machine', (file) => {
    const onDisk = path.join(DIAGRAM_DIR, file);
    expect(existsSync(onDisk), `docs/machines/${file} is missing: run npm run machines:diagrams`).toBe(true);
    expect(readFileSync(onDisk, 'utf8'), `docs/machines/${file} is stale: run npm run machines:diagrams`).toBe(
      rendered.get(file),
    );
  });

  it('holds no diagram of a machine that is gone', () => {
    const pages = readdirSync(DIAGRAM_DIR).filter((file) => file.endsWith('.md'));
    expect(pages.sort()).toEqual([...rendered.keys()].sort());
  });

  it('draws the geolocation cycle the spec describes', () => {
    const geolocate = rendered.get('geolocate.md') ?? '';
    for (const line of [
      'OFF --> WAITING_ACTIVE: geolocate.click [isTracking]',
      'WAITING_ACTIVE --> ACTIVE_LOCK: position.received',
      'ACTIVE_LOCK --> BACKGROUND: map.userMoved [isFollowingCamera]',
      'BACKGROUND --> ACTIVE_LOCK: geolocate.click',
      'BACKGROUND --> BACKGROUND_ERROR: position.error',
      'ONE_SHOT --> OFF: after oneShotFinish',
    ]) {
      expect(geolocate).toContain(line);
    }
  });
});

describe('toMermaid', () => {
  const sample = setup({
    types: { events: {} as { type: 'go' } | { type: 'back' } | { type: 'reset' } | { type: 'ping' } },
    actors: { load: fromPromise(async () => 1) },
    actions: { note: () => undefined },
    guards: { isReady: () => true },
    delays: { patience: 100 },
  }).createMachine({
    id: 'sample',
    initial: 'loading',
    on: { reset: '.loading', ping: { actions: 'note' } },
    states: {
      loading: {
        invoke: { id: 'load', src: 'load', onDone: 'ready', onError: 'broken' },
        on: { reset: {} },
      },
      broken: { after: { patience: 'loading', 250: 'ready' } },
      ready: {
        description: 'Loaded.',
        initial: 'calm',
        on: { back: { guard: 'isReady', target: 'loading' } },
        states: {
          calm: { on: { go: 'busy' } },
          busy: { always: { guard: 'isReady', target: 'calm' } },
        },
      },
    },
  });
  const lines = toMermaid(sample).split('\n').map((line) => line.trim());

  it('is a stateDiagram-v2 that starts at the initial state of each level', () => {
    expect(lines[0]).toBe('stateDiagram-v2');
    expect(lines).toContain('[*] --> loading');
    expect(lines).toContain('[*] --> ready_calm');
  });

  it('nests child states inside their parent and shows descriptions and invoked actors', () => {
    const ready = lines.indexOf('state "ready" as ready {');
    const calm = lines.indexOf('state "calm" as ready_calm');
    const end = lines.indexOf('}', ready);
    expect(ready).toBeGreaterThan(-1);
    expect(calm).toBeGreaterThan(ready);
    expect(end).toBeGreaterThan(calm);
    expect(lines).toContain('ready: Loaded.');
    expect(lines).toContain('loading: invokes load');
  });

  it('labels arrows with the event and guard, named and numeric delays, actor results and eventless transitions', () => {
    expect(lines).toContain('loading --> ready: load done');
    expect(lines).toContain('loading --> broken: load error');
    expect(lines).toContain('broken --> loading: after patience');
    expect(lines).toContain('broken --> ready: after 250 ms');
    expect(lines).toContain('ready --> loading: back [isReady]');
    expect(lines).toContain('ready_calm --> ready_busy: go');
    expect(lines).toContain('ready_busy --> ready_calm: always [isReady]');
  });

  it('draws a machine-wide transition from each top-level state that does not handle the event itself', () => {
    expect(lines).toContain('broken --> loading: reset');
    expect(lines).toContain('ready --> loading: reset');
    expect(lines).not.toContain('loading --> loading: reset');
  });

  it('draws a transition that only runs actions as a loop, and one that does nothing not at all', () => {
    expect(lines).toContain('loading --> loading: ping');
    expect(lines.filter((line) => line.includes(': reset') && line.startsWith('loading'))).toEqual([]);
  });
});
