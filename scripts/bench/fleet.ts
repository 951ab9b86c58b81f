import type { Browser, CDPSession, Page } from '@playwright/test';
import Supercluster from 'supercluster';
import { createIndexCore } from '../../src/pins/grouping/index-core.ts';
import { VIEWPORT, sleep } from './measure.ts';
import { renderTargets, type Target } from './report.ts';
import { deltas, percentile } from './stats.ts';

/**
 * A fleet (`npm run bench -- --fleet`; README "Pins that move"): 10,000 pins in and around a city,
 * 1,000 of them vehicles moving once a second (`updatePins` with their new places), grouped into
 * bubbles at the camera's zoom; beside it, in the same run, MapLibre's clustered GeoJSON source
 * fed the same changes through `updateData`. Both pages load the embed library (`createPinmap`,
 * and its `maplibre` export for the MapLibre page) on a plain background, so only the pins differ.
 *
 * - Pan: 3 drags of 2 s with the pins still, then 3 with the vehicles moving at 1 Hz; p95 of
 *   the intervals between frames, pooled; the target is moving ≤ 1.2× still.
 * - Per update, 20 updates 1 s apart, nothing else going on: the main thread's busy time
 *   (Chrome's `TaskDuration` through CDP) from just before the update until the next (its
 *   checking, grouping, drawing and glide frames), its script time (`ScriptDuration`), and the
 *   update call's own synchronous time; p95. The target (≤ 4 ms) is judged on the busy time.
 * - Change to frame: from the update's start (the changes in hand) to the end of the first frame
 *   drawn once the pins' GeoJSON source has taken new data and has its tiles again
 *   (`render` after `sourcedata`, `content`); p95; target ≤ 100 ms.
 * - Bubbles re-created for unchanged membership: for each update, the bubbles in view whose pins
 *   are the same before and after (each page's own grouping run in Node on the same places:
 *   Pinmap's index, and supercluster as MapLibre configures it), counted when the object that
 *   draws the bubble is made anew: for Pinmap, a bubble whose key changed (its source feature's id
 *   and its keyboard stand-in's key; a bubble that keeps it is changed in place); for MapLibre, a
 *   cluster whose `cluster_id` changed. Target 0 (Pinmap).
 */

export const FLEET = {
  seed: 1,
  pins: 10_000,
  moving: 1000,
  /** Updates a second. */
  hz: 1,
  center: [10, 50] as [number, number],
  zoom: 10,
  /** Ticks generated (the page wraps round after them). */
  ticks: 60,
  pans: 3,
  updates: 20,
  panRatio: 1.2,
  updateMs: 4,
  latencyMs: 100,
  /** As Pinmap's grouping and the MapLibre baseline: pins within 40 px merge, none above zoom 14. */
  clusterRadius: 40,
  clusterMaxZoom: 14,
};

/** mulberry32: a small seeded generator, so the fleet is the same run after run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fleet's places: `pins` starting places, and for each tick the moving pins' places ([pin index, lng, lat]). */
export interface FleetData {
  center: [number, number];
  zoom: number;
  pins: [number, number][];
  ticks: [number, number, number][][];
}

/**
 * `pins` places in a city 0.8° by 0.4° (denser towards its middle), the first `moving` of them
 * vehicles, each with a heading and a speed of 5–20 m/s, turning a little each second; `ticks`
 * seconds of their places.
 */
export function fleetData({ seed, pins: count, moving, ticks, center, zoom }: Pick<typeof FLEET, 'seed' | 'pins' | 'moving' | 'ticks' | 'center' | 'zoom'> = FLEET): FleetData {
  const random = seeded(seed);
  const pins: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    // Denser in the middle: the mean of two draws.
    const dx = (random() + random() - 1) * 0.4;
    const dy = (random() + random() - 1) * 0.2;
    pins.push([round(center[0] + dx), round(center[1] + dy)]);
  }
  const metresPerDegree = 111_320;
  const heading = Array.from({ length: moving }, () => random() * 2 * Math.PI);
  const speed = Array.from({ length: moving }, () => 5 + random() * 15);
  const at = pins.slice(0, moving).map(([lng, lat]) => [lng, lat] as [number, number]);
  const out: [number, number, number][][] = [];
  for (let t = 0; t < ticks; t++) {
    const tick: [number, number, number][] = [];
    for (let i = 0; i < moving; i++) {
      heading[i]! += (random() - 0.5) * 0.3;
      const step = speed[i]! / metresPerDegree;
      const place = at[i]!;
      place[0] = round(place[0] + (step * Math.cos(heading[i]!)) / Math.cos((place[1] * Math.PI) / 180));
      place[1] = round(place[1] + step * Math.sin(heading[i]!));
      tick.push([i, place[0], place[1]]);
    }
    out.push(tick);
  }
  return { center, zoom, pins, ticks: out };
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** Each tick's places of every pin (the start, then after each tick). */
function placesByTick(data: FleetData, ticks: number): Float64Array[] {
  const now = Float64Array.from(data.pins.flat());
  const out = [now.slice()];
  for (let t = 0; t < ticks; t++) {
    for (const [i, lng, lat] of data.ticks[t % data.ticks.length]!) {
      now[2 * i] = lng;
      now[2 * i + 1] = lat;
    }
    out.push(now.slice());
  }
  return out;
}

/** The box the view shows at `zoom` around `center` (Web Mercator, 512 px tiles as MapLibre's). */
export function viewBox(center: [number, number], zoom: number, size = VIEWPORT): [number, number, number, number] {
  const worldPx = 512 * 2 ** zoom;
  const x = ((center[0] + 180) / 360) * worldPx;
  const y = ((1 - Math.log(Math.tan(Math.PI / 4 + (center[1] * Math.PI) / 360)) / Math.PI) / 2) * worldPx;
  const lng = (px: number) => (px / worldPx) * 360 - 180;
  const lat = (py: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * py) / worldPx))) * 180) / Math.PI;
  return [lng(x - size.width / 2), lat(y + size.height / 2), lng(x + size.width / 2), lat(y - size.height / 2)];
}

/** A bubble as drawn: the key of the object that draws it, and its pins (sorted indexes, joined). */
type Bubble = { key: string; id: string; members: string };

/** Pinmap's bubbles in `bbox` at `zoom`, by its own grouping (the pin index). */
function pinmapBubbles(places: Float64Array, bbox: [number, number, number, number], zoom: number): Bubble[] {
  const answer = createIndexCore();
  answer({ id: 1, type: 'load', lngLats: places, zoom });
  const { reply } = answer({ id: 2, type: 'groups', bbox, zoom });
  if (!('type' in reply) || reply.type !== 'groups') throw new Error('the pin index did not answer with groups');
  const bubbles: Bubble[] = [];
  for (let k = 0; k < reply.clusters.length; k += 4) {
    const id = reply.clusters[k + 3]!;
    const leaves = answer({ id: 3, type: 'leaves', clusterId: id }).reply;
    if (!('type' in leaves) || leaves.type !== 'leaves') throw new Error('the pin index did not answer with leaves');
    // As the source and the keyboard stand-ins know an inline bubble (src/map/vector/gl-pins-layer.ts,
    // keyboard-stand-ins.ts): by its key (its feature id), its place and count changed in place.
    bubbles.push({ key: String(reply.keys[k / 4]!), id: String(id), members: [...leaves.pins].sort((a, b) => a - b).join() });
  }
  return bubbles;
}

/** MapLibre's clusters in `bbox` at `zoom`: supercluster as a clustered GeoJSON source sets it up (extent 8192, radius in tile units). */
function maplibreBubbles(places: Float64Array, bbox: [number, number, number, number], zoom: number): Bubble[] {
  const index = new Supercluster<{ i: number }>({ radius: (FLEET.clusterRadius * 8192) / 512, extent: 8192, maxZoom: FLEET.clusterMaxZoom, minPoints: 2 });
  const points = Array.from({ length: places.length / 2 }, (_, i) => ({ type: 'Feature' as const, properties: { i }, geometry: { type: 'Point' as const, coordinates: [places[2 * i]!, places[2 * i + 1]!] } }));
  index.load(points);
  const bubbles: Bubble[] = [];
  for (const feature of index.getClusters(bbox, zoom)) {
    const properties = feature.properties as { cluster?: boolean; cluster_id?: number };
    if (!properties.cluster) continue;
    const members = index.getLeaves(properties.cluster_id!, Infinity).map((leaf) => leaf.properties.i);
    bubbles.push({ key: String(properties.cluster_id), id: String(properties.cluster_id), members: members.sort((a, b) => a - b).join() });
  }
  return bubbles;
}

/** Of the bubbles whose pins are the same before and after, how many are drawn by a new object (their key changed). */
export function bubbleChurn(before: readonly Bubble[], after: readonly Bubble[]): Churn {
  const afterByMembers = new Map(after.map((bubble) => [bubble.members, bubble]));
  const churn: Churn = { unchanged: 0, recreated: 0, renumbered: 0 };
  for (const bubble of before) {
    const next = afterByMembers.get(bubble.members);
    if (next === undefined) continue;
    churn.unchanged++;
    if (next.key !== bubble.key) churn.recreated++;
    if (next.id !== bubble.id) churn.renumbered++;
  }
  return churn;
}

/** Bubbles with the same pins before and after an update; of those, drawn anew (their key changed), and given another id. */
export interface Churn {
  unchanged: number;
  recreated: number;
  renumbered: number;
}

export interface FleetSide {
  /** Frame intervals (ms) of the pans, pooled: the pins still, and moving. */
  panStill: number[];
  panMoving: number[];
  /** Per update: main-thread busy ms, script ms, the call's own ms, change to frame ms (NaN: no frame within 5 s). */
  taskMs: number[];
  scriptMs: number[];
  callMs: number[];
  latencyMs: number[];
  /** Over the measured updates: bubbles with the same pins before and after, and of those, drawn anew. */
  bubbles: Churn;
  /** The tick the timed updates started from (the page's ticks go on from the moving pans'). */
  firstTick: number;
  failure?: string;
}

export interface FleetFigures {
  pinmap: FleetSide;
  maplibre: FleetSide;
  loadAverage: [number, number];
}

/** Counts, over `updates` ticks from the camera's view, the bubbles drawn anew for unchanged membership. */
export function countBubbleChurn(data: FleetData, first: number, updates: number, side: 'pinmap' | 'maplibre'): Churn {
  const bbox = viewBox(data.center, data.zoom);
  const zoom = Math.floor(data.zoom);
  const places = placesByTick(data, first + updates);
  const bubblesOf = side === 'pinmap' ? pinmapBubbles : maplibreBubbles;
  const total: Churn = { unchanged: 0, recreated: 0, renumbered: 0 };
  let before = bubblesOf(places[first]!, bbox, zoom);
  for (let t = first + 1; t <= first + updates; t++) {
    const after = bubblesOf(places[t]!, bbox, zoom);
    const churn = bubbleChurn(before, after);
    total.unchanged += churn.unchanged;
    total.recreated += churn.recreated;
    total.renumbered += churn.renumbered;
    before = after;
  }
  return total;
}

/** The page of both sides (`?mode=pinmap|maplibre`): the fleet from `dataPath`, the embed library from `libPath`. */
export function fleetPage(libPath: string, dataPath: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Pinmap bench: a fleet</title><link rel="stylesheet" href="${libPath}/pinmap.css" /></head>
  <body style="margin:0">
    <div id="map" style="width:${VIEWPORT.width}px;height:${VIEWPORT.height}px"></div>
    <script type="module">
      import { createPinmap, maplibre } from '${libPath}/pinmap-embed.js';
      const mode = new URLSearchParams(location.search).get('mode');
      const data = await (await fetch('${dataPath}')).json();
      const fleet = { ready: false, next: 0 };
      window.__fleet = fleet;
      window.__bench = {};
      const style = { version: 8, sources: {}, layers: [{ id: 'backdrop', type: 'background', paint: { 'background-color': '#e9eef2' } }] };
      const source = mode === 'pinmap' ? 'pinmap-pins' : 'fleet';
      // Every write of the pins' source, and the map it is on (Pinmap's too, through the same MapLibre).
      let map;
      let lastWrite = -1;
      let contentSince = -1;
      const proto = maplibre.GeoJSONSource.prototype;
      for (const name of ['setData', 'updateData']) {
        const original = proto[name];
        proto[name] = function (...args) {
          if (this.id === source) {
            lastWrite = performance.now();
            if (!map) {
              map = this.map;
              map.on('sourcedata', (event) => {
                if (event.sourceId === source && event.sourceDataType === 'content') contentSince = performance.now();
              });
            }
          }
          return original.apply(this, args);
        };
      }
      const pinFeature = (i, lng, lat) => ({ type: 'Feature', id: 'v' + i, geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { title: 'Pin ' + i } });
      let handle;
      if (mode === 'pinmap') {
        handle = createPinmap('map', {
          style, center: data.center, zoom: data.zoom, fadeDuration: 0,
          controls: { navigation: false, geolocate: false, scale: false, fullscreen: false, attribution: false, view: false },
          pins: { type: 'FeatureCollection', features: data.pins.map(([lng, lat], i) => pinFeature(i, lng, lat)) },
        });
        await handle.ready;
      } else {
        map = new maplibre.Map({ container: 'map', style, center: data.center, zoom: data.zoom, fadeDuration: 0, attributionControl: false });
        map.on('sourcedata', (event) => {
          if (event.sourceId === source && event.sourceDataType === 'content') contentSince = performance.now();
        });
        await map.once('load');
        map.addSource(source, {
          type: 'geojson', cluster: true, clusterRadius: ${FLEET.clusterRadius}, clusterMaxZoom: ${FLEET.clusterMaxZoom},
          data: { type: 'FeatureCollection', features: data.pins.map(([lng, lat], i) => ({ type: 'Feature', id: i, geometry: { type: 'Point', coordinates: [lng, lat] }, properties: {} })) },
        });
        map.addLayer({ id: 'bubbles', type: 'circle', source, filter: ['has', 'point_count'], paint: { 'circle-radius': 16, 'circle-color': '#3fb1ce' } });
        map.addLayer({ id: 'pins', type: 'circle', source, filter: ['!', ['has', 'point_count']], paint: { 'circle-radius': 5, 'circle-color': '#3fb1ce' } });
        await map.once('idle');
      }
      if (!map) throw new Error('the pins source was never written');
      // Until the map has drawn a frame with the pins' source written (and taken by its worker) after t0.
      const drawn = (t0) => new Promise((resolve) => {
        const check = () => {
          if (lastWrite < t0 || contentSince < t0 || !map.isSourceLoaded(source)) return;
          map.off('render', check);
          resolve(performance.now() - t0);
        };
        map.on('render', check);
        setTimeout(() => { map.off('render', check); resolve(NaN); }, 5000);
      });
      fleet.tick = async () => {
        const moved = data.ticks[fleet.next++ % data.ticks.length];
        const t0 = performance.now();
        const frame = drawn(t0);
        let callMs;
        if (mode === 'pinmap') {
          const applied = handle.updatePins({ update: moved.map(([i, lng, lat]) => pinFeature(i, lng, lat)) });
          callMs = performance.now() - t0;
          await applied;
        } else {
          map.getSource(source).updateData({ update: moved.map(([i, lng, lat]) => ({ id: i, newGeometry: { type: 'Point', coordinates: [lng, lat] } })) });
          callMs = performance.now() - t0;
        }
        return { callMs, latencyMs: await frame };
      };
      let ticking;
      fleet.startTicking = () => { ticking = setInterval(() => void fleet.tick(), ${1000 / FLEET.hz}); };
      fleet.stopTicking = () => clearInterval(ticking);
      await new Promise((resolve) => map.loaded() ? resolve() : map.once('idle', resolve));
      fleet.ready = true;
    </script>
  </body>
</html>`;
}

declare global {
  interface Window {
    __fleet?: { ready: boolean; next: number; tick(): Promise<{ callMs: number; latencyMs: number }>; startTicking(): void; stopTicking(): void };
  }
}

/** A 2 s drag of 400 px, right to left or back; the intervals between frames meanwhile. */
async function panFrames(page: Page, back: boolean): Promise<number[]> {
  const [from, to] = back ? [{ x: 300, y: 350 }, { x: 700, y: 350 }] : [{ x: 700, y: 350 }, { x: 300, y: 350 }];
  await page.mouse.move(from.x, from.y);
  // In-page code as strings: tsx names functions with a helper the page does not have.
  await page.evaluate(`(() => {
    const stamps = [];
    window.__stamps = stamps;
    const loop = (time) => {
      if (window.__stamps !== stamps) return;
      stamps.push(time);
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  })()`);
  await page.mouse.down();
  const start = Date.now();
  for (;;) {
    const f = Math.min(1, (Date.now() - start) / 2000);
    await page.mouse.move(from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f);
    if (f >= 1) break;
    await sleep(16);
  }
  await page.mouse.up();
  const stamps = (await page.evaluate('(() => { const taken = window.__stamps || []; window.__stamps = undefined; return taken; })()')) as number[];
  return deltas(stamps);
}

async function metrics(cdp: CDPSession): Promise<{ task: number; script: number }> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const value = (name: string) => list.find((m) => m.name === name)?.value ?? Number.NaN;
  return { task: value('TaskDuration') * 1000, script: value('ScriptDuration') * 1000 };
}

/** One side: load, pans still and moving, then the timed updates. */
export async function measureFleetSide(browser: Browser, url: string, log: (message: string) => void): Promise<FleetSide> {
  const side: FleetSide = { panStill: [], panMoving: [], taskMs: [], scriptMs: [], callMs: [], latencyMs: [], bubbles: { unchanged: 0, recreated: 0, renumbered: 0 }, firstTick: 0 };
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForFunction('window.__fleet && window.__fleet.ready === true', null, { timeout: 120_000, polling: 200 }).catch((error: unknown) => {
      throw new Error(`${errors[0] ?? (error as Error).message.split('\n')[0]}`);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await sleep(500);
    for (let k = 0; k < FLEET.pans; k++) side.panStill.push(...(await panFrames(page, k % 2 === 1)));
    log(`  still pans: ${side.panStill.length} frames`);
    // Back where it started (an odd number of pans leaves it 400 px off).
    if (FLEET.pans % 2 === 1) await panFrames(page, true);
    await page.evaluate('window.__fleet.startTicking()');
    for (let k = 0; k < FLEET.pans; k++) side.panMoving.push(...(await panFrames(page, k % 2 === 1)));
    await page.evaluate('window.__fleet.stopTicking()');
    if (FLEET.pans % 2 === 1) await panFrames(page, true);
    log(`  moving pans: ${side.panMoving.length} frames`);
    await sleep(1500);
    side.firstTick = (await page.evaluate('window.__fleet.next')) as number;
    for (let u = 0; u < FLEET.updates; u++) {
      const started = Date.now();
      const before = await metrics(cdp);
      const { callMs, latencyMs } = (await page.evaluate('window.__fleet.tick()')) as { callMs: number; latencyMs: number };
      await sleep(Math.max(0, 1000 / FLEET.hz - (Date.now() - started)));
      const after = await metrics(cdp);
      side.taskMs.push(after.task - before.task);
      side.scriptMs.push(after.script - before.script);
      side.callMs.push(callMs);
      side.latencyMs.push(latencyMs);
    }
    log(`  updates: ${side.taskMs.length}`);
    if (errors.length) side.failure = errors.join('; ');
  } catch (error) {
    side.failure = error instanceof Error ? error.message.split('\n')[0] : String(error);
  } finally {
    await context.close();
  }
  return side;
}

const p95 = (values: readonly number[]) => percentile(values.filter((v) => Number.isFinite(v)), 95);
const ms = (value: number) => (Number.isFinite(value) ? (value >= 100 ? value.toFixed(0) : value.toFixed(1)) : '–');

/** Pinmap's targets, judged. */
export function fleetTargets({ pinmap }: FleetFigures): Target[] {
  const still = p95(pinmap.panStill);
  const moving = p95(pinmap.panMoving);
  const ratio = moving / still;
  const task = p95(pinmap.taskMs);
  const latency = p95(pinmap.latencyMs);
  const known = (value: number) => Number.isFinite(value);
  const fleet = `${FLEET.pins.toLocaleString('en-US')} pins, ${FLEET.moving.toLocaleString('en-US')} moving at ${FLEET.hz} Hz`;
  return [
    { name: `${fleet}: pan p95 ≤ ${FLEET.panRatio}× the same pins still`, figure: known(ratio) ? `${ratio.toFixed(2)}× (${ms(moving)} / ${ms(still)} ms)` : 'not measured', met: known(ratio) ? ratio <= FLEET.panRatio : undefined },
    { name: `${fleet}: main-thread time per update p95 ≤ ${FLEET.updateMs} ms`, figure: known(task) ? `${ms(task)} ms` : 'not measured', met: known(task) ? task <= FLEET.updateMs : undefined },
    { name: `${fleet}: a change to the frame that draws it p95 ≤ ${FLEET.latencyMs} ms`, figure: known(latency) ? `${ms(latency)} ms` : 'not measured', met: known(latency) ? latency <= FLEET.latencyMs : undefined },
    {
      name: `${fleet}: bubbles re-created for unchanged membership = 0`,
      figure: `${pinmap.bubbles.recreated} of ${pinmap.bubbles.unchanged}`,
      met: pinmap.bubbles.unchanged === 0 && pinmap.bubbles.recreated === 0 ? undefined : pinmap.bubbles.recreated === 0,
    },
  ];
}

/** The report's section (`results/fleet.md`). */
export function renderFleet(figures: FleetFigures): string {
  const row = (label: string, of: (side: FleetSide) => string) => `| ${label} | ${of(figures.pinmap)} | ${of(figures.maplibre)} |`;
  const failures = (['pinmap', 'maplibre'] as const).flatMap((name) => (figures[name].failure ? [`${name}: ${figures[name].failure}`] : []));
  return [
    `#### A fleet: ${FLEET.pins.toLocaleString('en-US')} pins, ${FLEET.moving.toLocaleString('en-US')} moving at ${FLEET.hz} Hz`,
    '',
    ...renderTargets(fleetTargets(figures)),
    '',
    '| p95 unless said | Pinmap, vector view (`updatePins`) | MapLibre clustered GeoJSON source (`updateData`) |',
    '|---|---:|---:|',
    row('pan, pins still: frame interval (ms)', (s) => ms(p95(s.panStill))),
    row('pan, vehicles moving: frame interval (ms)', (s) => ms(p95(s.panMoving))),
    row('pan, moving / still', (s) => (Number.isFinite(p95(s.panMoving) / p95(s.panStill)) ? `${(p95(s.panMoving) / p95(s.panStill)).toFixed(2)}×` : '–')),
    row('main-thread busy time per update (ms, CDP TaskDuration over its second)', (s) => ms(p95(s.taskMs))),
    row('script time per update (ms, CDP ScriptDuration over its second)', (s) => ms(p95(s.scriptMs))),
    row('the update call itself, synchronous (ms)', (s) => ms(p95(s.callMs))),
    row('a change to the frame that draws it (ms)', (s) => ms(p95(s.latencyMs))),
    row('updates with no such frame within 5 s', (s) => String(s.latencyMs.filter((v) => !Number.isFinite(v)).length)),
    row('bubbles in view re-created for unchanged membership (total over the updates)', (s) => `${s.bubbles.recreated} of ${s.bubbles.unchanged}`),
    row('… of which given another id', (s) => String(s.bubbles.renumbered)),
    '',
    `The fleet: seed ${FLEET.seed}, ${FLEET.pins.toLocaleString('en-US')} pins in 0.8° × 0.4° around [${FLEET.center.join(', ')}], the first ${FLEET.moving.toLocaleString('en-US')} vehicles at 5–20 m/s; ` +
      `camera zoom ${FLEET.zoom}, viewport ${VIEWPORT.width}×${VIEWPORT.height}, a plain background, \`pinTransition\` at its default (300 ms). ` +
      `Pans: ${FLEET.pans} drags of 400 px in 2 s each way, frame intervals pooled; updates: ${FLEET.updates}, 1 s apart, nothing else going on. ` +
      `Bubbles: each side's own grouping of the same places in Node (Pinmap's pin index; supercluster as MapLibre sets it up), over the view at zoom ${Math.floor(FLEET.zoom)}; ` +
      `a Pinmap bubble counts as re-created when its key changed (its source feature's id, and its keyboard stand-in's key; its place and count change in place), a MapLibre cluster when its \`cluster_id\` did. ` +
      `Load average ${figures.loadAverage[0].toFixed(1)} before, ${figures.loadAverage[1].toFixed(1)} after.${failures.length ? ` Failures: ${failures.join('; ')}.` : ''}`,
  ].join('\n');
}

/** Both sides, one after the other, and the bubble counts. */
export async function measureFleet(browser: Browser, pageUrl: (mode: 'pinmap' | 'maplibre') => string, data: FleetData, log: (message: string) => void, loadAverage: () => number): Promise<FleetFigures> {
  const before = loadAverage();
  log('Fleet: Pinmap …');
  const pinmap = await measureFleetSide(browser, pageUrl('pinmap'), log);
  log('Fleet: MapLibre clustered GeoJSON …');
  const maplibre = await measureFleetSide(browser, pageUrl('maplibre'), log);
  // Over the ticks of the timed updates (after those of the moving pans).
  pinmap.bubbles = countBubbleChurn(data, pinmap.firstTick, FLEET.updates, 'pinmap');
  maplibre.bubbles = countBubbleChurn(data, maplibre.firstTick, FLEET.updates, 'maplibre');
  return { pinmap, maplibre, loadAverage: [before, loadAverage()] };
}
