/** A map's pins as they are read: fetched and checked once per config, with progress for large files. */
import { useEffect, useMemo } from 'react';
import type { PinReading, PinSet } from '../../pins/types.ts';
import { startPinRequest, type PinRequest } from '../../map/pin-request.ts';
import { tokenRuleOf } from '../../map/request-transform.ts';
import { formatBytes } from '../../config/errors.ts';
import { configKey, type PinmapConfig } from '../../config/schema.ts';
import type { localeWith } from '../../config/locale.ts';
import { useLatest } from './use-latest.ts';

/**
 * The code that reads and checks pins: a chunk of its own, loaded when a config first has pins
 * (beside the map's own start), so a map without pins never loads it.
 */
export const loadPinCode = () => import('../../map/pin-source.ts');

/**
 * The config's pins as something to place on each map: read (fetched and checked) from the
 * moment the pins, the pin styles or how they are fetched change, beside the map's own start, and
 * read again on a Retry. `onProgress` hears how far a large file has come (a text, from
 * `progressOf`). Undefined without pins.
 */
export function usePinSource(config: PinmapConfig, onProgress: (progress: { for: PinSource; text: string } | undefined) => void): PinSource | undefined {
  const key = useMemo(
    () =>
      configKey([config.pins, config.pinStyles, config.searchFields, config.popupFields, config.listDetailField, config.csv, config.pinsTimeout, config.maxPinBytes, config.pinsRefresh, tokenRuleOf(config, pageBase())]),
    [config],
  );
  const tellProgress = useLatest(onProgress);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const source = useMemo(() => (config.pins === undefined ? undefined : new PinSource(config, (text) => tellProgress.current(text === undefined ? undefined : { for: source!, text }))), [key]);
  useEffect(() => {
    if (!source) return;
    source.start();
    return () => source.stop();
  }, [source]);
  return source;
}

/** The page's base URL; a placeholder on a server, where nothing is fetched (the pins are read once the page has hydrated). */
function pageBase(): string {
  return typeof document === 'undefined' ? 'http://localhost/' : document.baseURI;
}

/** Pins being read: the latest reading, and a new one (a Retry after a failure). */
export class PinSource {
  private request = new AbortController();
  private reading: Promise<PinSet> | undefined;
  /** The `ETag` of the file as last read, sent as `If-None-Match` by `refresh`. */
  private etag: string | undefined;

  constructor(
    /** The config the pins are of: its pins, pin styles, the fields to keep, CSV columns, token rule and limits. */
    readonly config: PinmapConfig,
    private readonly onProgress: (text: string | undefined) => void,
  ) {}

  /** Starts reading the pins (again, after `stop`). */
  start(): void {
    this.request = new AbortController();
    this.reading = undefined;
    this.latest();
  }

  /** Stops a reading under way: its request is aborted. */
  stop(): void {
    this.request.abort();
  }

  /** The pins as last read. */
  latest(): Promise<PinSet> {
    return (this.reading ??= this.read());
  }

  /** Reads the pins again. */
  reload(): Promise<PinSet> {
    return (this.reading = this.read());
  }

  /**
   * Reads a pin file again (config `pinsRefresh`) with the last `ETag`: `'same'` when the server
   * answers `304 Not Modified` (or the pins are not a file), else the new pins, which are then
   * the latest reading (a view switch places them). Rejects with a `PinLoadError` naming the URL.
   */
  async refresh(): Promise<PinSet | 'same'> {
    const { pins, pinStyles, searchFields, popupFields, listDetailField, csv } = this.config;
    if (typeof pins !== 'string') return 'same';
    const { signal } = this.request;
    const { refreshPinSet } = await loadPinCode();
    const request: PinRequest = { rule: tokenRuleOf(this.config, document.baseURI), timeout: this.config.pinsTimeout, maxBytes: this.config.maxPinBytes };
    const read = await refreshPinSet(pins, this.etag, pinStyles, document.baseURI, signal, { searchFields, popupFields, listDetailField, csv }, request);
    if (!read) return 'same';
    this.etag = read.etag;
    this.reading = Promise.resolve(read.set);
    return read.set;
  }

  private read(): Promise<PinSet> {
    const { signal } = this.request;
    const { pins, pinStyles, searchFields, popupFields, listDetailField, csv } = this.config;
    const reading: PinReading = { searchFields, popupFields, listDetailField, csv };
    let shown: string | undefined;
    const request: PinRequest = {
      rule: tokenRuleOf(this.config, document.baseURI),
      timeout: this.config.pinsTimeout,
      maxBytes: this.config.maxPinBytes,
      onProgress: (loaded, total) => {
        const text = progressOf(loaded, total);
        if (text === shown || signal.aborted) return;
        shown = text;
        this.onProgress(text);
      },
    };
    const started = startPinRequest(pins, document.baseURI, signal, request);
    this.etag = undefined;
    started?.then((response) => {
      if (response.ok) this.etag = response.headers.get('ETag') ?? undefined;
    }, () => {});
    const read = loadPinCode().then(({ loadPinSet }) => loadPinSet(pins!, pinStyles, document.baseURI, signal, reading, started, request));
    read.catch(() => {}); // heard where the pins are placed; a map that could not be made needs no pins
    return read;
  }
}

/** Files smaller than this arrive without a word of progress. */
const PROGRESS_FROM_BYTES = 1_000_000;

/**
 * How far a pin file has come, in steps a screen reader can follow: `40` (per cent, in tens) when
 * its size is known, else the size read so far (`12 MB`, in whole megabytes); undefined while it
 * is small.
 */
function progressOf(loaded: number, total: number | undefined): string | undefined {
  if (total !== undefined && total >= loaded) return total < PROGRESS_FROM_BYTES ? undefined : `${Math.floor((loaded / total) * 10) * 10}`;
  return loaded < PROGRESS_FROM_BYTES ? undefined : formatBytes(Math.floor(loaded / 1e6) * 1e6);
}

/** The progress as the page says it: "Loading pins… 40 %", or "Loading pins… 12 MB". */
export function progressLabel(progress: string, locale: ReturnType<typeof localeWith>): string {
  return /^\d+$/.test(progress) ? locale['PinLayer.Loading'].replace('{percent}', progress) : locale['PinLayer.LoadingSize'].replace('{size}', progress);
}
