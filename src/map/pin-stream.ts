import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { httpFailure, reasonOf } from '../config/errors.ts';
import { checkFeedEvent, type PinChangesChecked } from '../config/pin-changes.ts';
import { openRequest, RequestError } from './request-path.ts';
import { withToken, type TokenRule } from './request-transform.ts';
import { waitFor, type Wait } from './wait.ts';

/**
 * A pin stream (config `pinsStream`, README "Pins that move"): server-sent events of pin changes,
 * read through `fetch` (the request path), so the pin files' token rule (the token as a query
 * parameter or a header, only to the provider's origin), their start timeout and their size limit
 * (per event) hold, which the browser's `EventSource` could not give. `eventsource-parser` splits
 * the text into events.
 *
 * - Each event is JSON `{ add, update, remove, skipped }` (`checkFeedEvent`), handed to
 *   `onChanges` in order, one after the other. A malformed event, or one larger than the limit,
 *   is named in a notice and passed over; the rest of the stream is applied.
 * - A stream that ends or breaks is read again after a wait (`reconnectDelay`): the server's
 *   `retry:` if it sent one, else 1 s, doubled for each attempt that fails in a row, at most 60 s
 *   (or the server's `retry:` if longer), with `Last-Event-ID` when events had ids. A failed
 *   attempt is a notice naming the stream and why; the next connection clears it.
 * - A stream that cannot be read at all stops with a notice naming it: an HTTP error other than
 *   408, 429 and 5xx (which are tried again), an answer that is not `text/event-stream`, a redirect
 *   refused with the token as a header, a request the page's policy refuses.
 * - The signal (the map destroyed, the option changed) stops it, with its request.
 */

/** How a pin stream is read. */
export interface PinStreamOptions {
  /** The stream's absolute URL. */
  url: string;
  /** The map's token rule (a stream on the provider's origin carries the token). */
  rule?: TokenRule | undefined;
  /** Milliseconds the server has to start answering (config `pinsTimeout`). */
  timeout?: number | undefined;
  /** The most characters one event may have (config `maxPinBytes`). */
  maxEventSize?: number | undefined;
  /** Stops the stream. */
  signal: AbortSignal;
  /**
   * Applies one event's changes; resolves with what could not be applied (texts for the notice).
   * The next event waits for it.
   */
  onChanges(changes: PinChangesChecked): Promise<string[]>;
  /** The stream's notice: a text, or undefined when there is nothing (more) to say. */
  onNotice(text: string | undefined): void;
  /** The wait before reading again: a timer, or a test's simulated clock. */
  wait?: Wait | undefined;
}

/** The first wait before a stream is read again, and the longest, in ms (unless the server's `retry:` says otherwise). */
export const STREAM_RETRY = { first: 1000, max: 60_000 } as const;

/**
 * How long to wait before the `attempt`-th reconnection in a row (1 after a drop): `base` (the
 * server's `retry:`, else `first`) doubled for each attempt before it, at most `max` or `base`.
 */
export function reconnectDelay(attempt: number, serverRetry: number | undefined, first: number = STREAM_RETRY.first, max: number = STREAM_RETRY.max): number {
  const base = serverRetry ?? first;
  return Math.min(Math.max(max, base), base * 2 ** Math.max(0, attempt - 1));
}

/** Why a stream stops for good: said in its notice. */
class StreamRefused extends Error {}

/** Where a notice came from: the connection (cleared by the next one) or an event (kept until another replaces it). */
type NoticeKind = 'connection' | 'event' | 'skipped';

/** Reads a pin stream until `signal` aborts or it cannot be read at all. Resolves then. */
export async function readPinStream(options: PinStreamOptions): Promise<void> {
  const { url, signal } = options;
  const name = `The pin stream ${url}`;
  let noticeKind: NoticeKind | undefined;
  const notice = (text: string | undefined, kind: NoticeKind) => {
    if (text === undefined && noticeKind !== kind) return;
    noticeKind = text === undefined ? undefined : kind;
    options.onNotice(text);
  };
  let attempt = 0;
  let serverRetry: number | undefined;
  let lastId: string | undefined;
  let count = 0;
  while (!signal.aborted) {
    let failed: { reason: string } | undefined;
    try {
      const { url: withRule, headers } = withToken(url, options.rule);
      const response = await openRequest(withRule, {
        headers: { ...headers, Accept: 'text/event-stream', ...(lastId === undefined ? {} : { 'Last-Event-ID': lastId }) },
        signal,
        timeout: options.timeout,
        cache: 'no-store',
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        const { status } = response;
        if (status === 408 || status === 429 || status >= 500) throw new RequestError(response.statusText, 'http', status);
        throw new StreamRefused(`${name} could not be read: ${httpFailure(status)}`);
      }
      const type = response.headers.get('Content-Type') ?? '';
      if (!/^text\/event-stream\s*(;|$)/i.test(type)) {
        await response.body?.cancel().catch(() => {});
        throw new StreamRefused(`${name} is not an event stream: it was answered as ${type ? `"${type.split(';')[0]}"` : 'a file without a Content-Type'}, not "text/event-stream"`);
      }
      attempt = 0;
      notice(undefined, 'connection');
      await readEvents(response, options, {
        retry: (ms) => (serverRetry = ms),
        event: async (message) => {
          count++;
          if (message.id !== undefined) lastId = message.id;
          if (message.event !== undefined && message.event !== 'message') return;
          let changes: PinChangesChecked;
          let skipped: string[] | undefined;
          try {
            ({ changes, skipped } = checkFeedEvent(message.data));
          } catch (error) {
            notice(`${name} sent a malformed event (${eventName(count, message)}): ${reasonOf(error)}. The other events are applied.`, 'event');
            return;
          }
          const problems = await options.onChanges(changes);
          if (problems.length > 0) notice(`${name}: ${eventName(count, message)} was applied in part: ${problems.join('; ')}`, 'event');
          if (skipped !== undefined) notice(skipped.length === 0 ? undefined : `${name} left out ${skipped.length === 1 ? 'a pin' : `${skipped.length} pins`}: ${skipped.join('; ')}`, 'skipped');
        },
        tooLarge: () => {
          count++;
          notice(`${name} sent an event larger than ${options.maxEventSize} characters (event ${count}), which was refused (the maxPinBytes limit). The other events are applied.`, 'event');
        },
      });
      // The server ended the stream: read it again, as an EventSource would.
      attempt = 1;
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof StreamRefused) {
        notice(error.message, 'connection');
        return;
      }
      attempt++;
      failed = { reason: reasonOf(error) };
    }
    const wait = reconnectDelay(attempt, serverRetry);
    if (failed) notice(`${name} could not be read: ${failed.reason}. Trying again in ${formatWait(wait)}.`, 'connection');
    await (options.wait ?? waitFor)(wait, signal);
  }
}

function eventName(count: number, message: EventSourceMessage): string {
  return message.id === undefined ? `event ${count}` : `event ${count}, id ${JSON.stringify(message.id)}`;
}

function formatWait(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

interface EventHandlers {
  retry(ms: number): void;
  event(message: EventSourceMessage): Promise<void>;
  tooLarge(): void;
}

/**
 * Reads one connection's events until its body ends (resolves) or breaks (rejects). Events are
 * handled one after the other, in order. An event whose data is longer than the limit is refused
 * (`tooLarge`); one so long that the parser's buffer (twice the limit) fills before it ends breaks
 * the connection, which is then read again.
 */
async function readEvents(response: Response, options: PinStreamOptions, on: EventHandlers): Promise<void> {
  const body = response.body;
  if (!body) return;
  const limit = options.maxEventSize;
  let handling = Promise.resolve();
  let overflowed = false;
  const parser = createParser({
    onEvent: (message) => {
      handling = handling.then(() => (limit !== undefined && message.data.length > limit ? on.tooLarge() : on.event(message)));
    },
    onRetry: (ms) => on.retry(ms),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflowed = true;
    },
    ...(limit === undefined ? {} : { maxBufferSize: 2 * limit }),
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        if (error instanceof Error && error.name === 'AbortError') throw error;
        throw new RequestError(reasonOf(error), 'network');
      });
      if (done) break;
      parser.feed(value);
      if (overflowed) {
        await reader.cancel().catch(() => {});
        await handling;
        on.tooLarge();
        throw new RequestError(`an event longer than ${limit} characters did not end`, 'too-large');
      }
    }
  } finally {
    await handling;
  }
}
