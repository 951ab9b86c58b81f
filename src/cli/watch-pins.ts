import { watch, type FSWatcher } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname } from 'node:path';
import type { PinmapConfigInput } from '../config/types.ts';
import type { FileSummary } from './serve.ts';

/**
 * `pinmap serve --watch` (README, "Pins that move"): the served GeoJSON and CSV files read again
 * whenever they change, and what changed, by pin id, sent to every open map as a pin stream
 * (config `pinsStream`, server-sent events `{ add, update, remove, skipped }`). Each file's folder
 * is watched, not the file: editors and spreadsheets save by writing a new file and renaming it
 * over the old one, which a watch on the old file would not see.
 */

/** A pin stream event: the pins added, updated (whole features) and removed (ids), and the rows left out. */
export interface PinFileChanges {
  add: unknown[];
  update: unknown[];
  remove: string[];
  skipped: string[];
}

/** The features of a reading by pin id, each with its JSON (compared to find what changed). */
export type FeaturesById = Map<string, { feature: unknown; json: string }>;

/** A feature's pin id, as the map reads it: the feature's `id`, else `properties.id`. */
function idOf(feature: unknown): string {
  const { id, properties } = feature as { id?: unknown; properties?: { id?: unknown } | null };
  return String(id ?? properties?.id);
}

/** The features of a reading by pin id (a later feature of an id wins, as the checked file has none twice). */
export function byId(features: readonly unknown[]): FeaturesById {
  const map: FeaturesById = new Map();
  for (const feature of features) map.set(idOf(feature), { feature, json: JSON.stringify(feature) });
  return map;
}

/** What changed from one reading to the next, by pin id: pins added, pins whose feature changed, ids gone. */
export function diffFeatures(before: FeaturesById, after: FeaturesById): Omit<PinFileChanges, 'skipped'> {
  const changes: Omit<PinFileChanges, 'skipped'> = { add: [], update: [], remove: [] };
  for (const [id, { feature, json }] of after) {
    const old = before.get(id);
    if (!old) changes.add.push(feature);
    else if (old.json !== json) changes.update.push(feature);
  }
  for (const id of before.keys()) if (!after.has(id)) changes.remove.push(id);
  return changes;
}

/** The reasons a file's rows (or features) were left out, each after the file's name, and a count of the rest. */
export function skippedOf(summaries: readonly FileSummary[]): string[] {
  const lines: string[] = [];
  for (const summary of summaries) {
    const name = basename(summary.file);
    for (const skipped of summary.skipped) lines.push(`${name}: ${skipped.reason}`);
    const more = summary.skippedCount - summary.skipped.length;
    if (more > 0) lines.push(`${name}: and ${more.toLocaleString('en-US')} more`);
  }
  return lines;
}

/** How long the files must be quiet before they are read: a save is often several writes and a rename. */
const SETTLE_MS = 150;
/** How many events are kept for a map that reconnects with `Last-Event-ID`. */
const KEPT_EVENTS = 200;
/** A comment line this often keeps an idle stream open through proxies. */
const HEARTBEAT_MS = 25_000;

/** One served pin file: its path and how it is read. */
export interface WatchedFile {
  file: string;
  format: 'geojson' | 'csv';
}

/** Watches the served pin files and streams their changes to every map that listens (`attach`). */
export class PinFileWatch {
  private current: FeaturesById = new Map();
  private skipped: string[] = [];
  private version = 0;
  private readonly kept: { id: number; text: string }[] = [];
  private readonly listeners = new Set<ServerResponse>();
  private readonly watchers: FSWatcher[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly files: readonly WatchedFile[],
    private readonly csv: PinmapConfigInput['csv'],
    /** Reads one file as `pinmap serve` does (`readPinFile`), its good pins added to `into` as features. */
    private readonly readPinFile: (file: string, format: 'geojson' | 'csv', csv: PinmapConfigInput['csv'], into: unknown[]) => Promise<FileSummary>,
    /** Told each change sent, as a line for the terminal (`places.csv: 1 added, 2 updated, 0 removed`). */
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** The pins as last read, as one FeatureCollection's JSON (several files served as one). */
  collection(): string {
    return JSON.stringify({ type: 'FeatureCollection', features: [...this.current.values()].map((entry) => entry.feature) });
  }

  /** Reads the files and starts watching their folders. */
  async start(): Promise<void> {
    await this.read(false);
    const names = new Set(this.files.map((file) => basename(file.file)));
    for (const folder of new Set(this.files.map((file) => dirname(file.file)))) {
      const watcher = watch(folder, (_, name) => {
        if (name === null || names.has(basename(name.toString()))) this.schedule();
      });
      watcher.on('error', () => {});
      this.watchers.push(watcher);
    }
    this.heartbeat = setInterval(() => this.send(':\n\n'), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Stops watching and ends every stream. */
  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    for (const watcher of this.watchers) watcher.close();
    for (const response of this.listeners) response.end();
    this.listeners.clear();
  }

  /** Answers a request for the stream: the events after its `Last-Event-ID` that are still kept, then each new one. */
  attach(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    if (request.method === 'HEAD') return void response.end();
    response.write('retry: 1000\n\n');
    const last = Number(request.headers['last-event-id']);
    if (Number.isInteger(last)) for (const event of this.kept) if (event.id > last) response.write(event.text);
    this.listeners.add(response);
    response.on('close', () => this.listeners.delete(response));
  }

  /** The files are read again once they have been quiet for a moment. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.reading = this.reading.then(() => this.read(true));
    }, SETTLE_MS);
  }

  private async read(announce: boolean): Promise<void> {
    const features: unknown[] = [];
    const summaries: FileSummary[] = [];
    try {
      for (const { file, format } of this.files) summaries.push(await this.readPinFile(file, format, this.csv, features));
    } catch {
      // A file gone for a moment (saved by rename), or cut off mid-write: the next change reads it.
      return;
    }
    const next = byId(features);
    const changes = diffFeatures(this.current, next);
    const skipped = skippedOf(summaries);
    this.current = next;
    const sameSkipped = skipped.join('\n') === this.skipped.join('\n');
    this.skipped = skipped;
    if (!announce || (changes.add.length === 0 && changes.update.length === 0 && changes.remove.length === 0 && sameSkipped)) return;
    const event: PinFileChanges = { ...changes, skipped };
    this.version++;
    const text = `id: ${this.version}\ndata: ${JSON.stringify(event)}\n\n`;
    this.kept.push({ id: this.version, text });
    if (this.kept.length > KEPT_EVENTS) this.kept.shift();
    this.send(text);
    const names = this.files.map((file) => basename(file.file)).join(', ');
    this.log(`${names}: ${changes.add.length} added, ${changes.update.length} updated, ${changes.remove.length} removed${skipped.length > 0 ? `, skipped: ${skipped.join('; ')}` : ''}`);
  }

  private send(text: string): void {
    for (const response of this.listeners) response.write(text);
  }
}
