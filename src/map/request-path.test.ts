import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../config/errors.ts';
import { fetchBytes, openRequest, RequestError } from './request-path.ts';

/**
 * The request path in a page whose Content Security Policy refuses a request: the browser's
 * `fetch` fails with a bare "Failed to fetch" and tells the document what it blocked in a
 * `securitypolicyviolation` event a task later. Here a stand-in document and `fetch` do the same.
 */

/** The page's document: one for the file, as a page has one (its violations are watched once). */
const page = new EventTarget();

/** A page (`document`, at `http://app.example`) whose policy refuses every request: `fetch` fails as a browser's does, and the violation follows. */
function pageRefusing(directive: string): EventTarget {
  vi.stubGlobal('document', page);
  vi.stubGlobal('location', { origin: 'http://app.example', href: 'http://app.example/' });
  vi.stubGlobal('fetch', async (url: string) => {
    setTimeout(() => page.dispatchEvent(Object.assign(new Event('securitypolicyviolation'), { blockedURI: url, effectiveDirective: directive })), 0);
    throw new TypeError('Failed to fetch');
  });
  return page;
}

afterEach(() => vi.unstubAllGlobals());

describe('a request the page\'s policy refuses', () => {
  // No map has been made: nothing else has started watching the page's policy (a `?config=`, a
  // pin file or a pin archive is the page's first request).
  it('as the page\'s first request (a ?config= or a pin file before any map): named with the directive and the origin to add, not "Failed to fetch"', async () => {
    pageRefusing('connect-src');
    const failure = await openRequest('http://localhost:9/config.json').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestError);
    expect((failure as RequestError).failure).toBe('policy');
    expect((failure as RequestError).message).toBe(MESSAGES.blockedByPolicy('connect-src', 'http://localhost:9'));
    await expect(fetchBytes('http://localhost:9/pins.geojson')).rejects.toThrow("the page's Content Security Policy does not allow it (connect-src): add http://localhost:9 to connect-src");
  });

  it('of the page\'s own origin (refused where a redirect took it; the browser reports the URL asked for): says the redirect went to an origin the policy refuses, not to add the page\'s own', async () => {
    pageRefusing('connect-src');
    await expect(fetchBytes('http://app.example/moved-config.json')).rejects.toThrow(MESSAGES.redirectBlockedByPolicy('connect-src'));
  });
});
