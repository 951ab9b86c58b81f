import { useEffect, useMemo, useState } from 'react';
import { addressConfigRefusal, addressPinsRefusal, isPageOrigin, narrowerOrigins, parseHidden, parseMapHash, parseView } from '../config/address.ts';
import { DEFAULTS, LIMITS } from '../config/constants.ts';
import { MESSAGES, httpFailure, isHtmlAnswer, reasonOf } from '../config/errors.ts';
import { fetchBytes, RequestError } from '../map/request-path.ts';
import { PageNoticeContext } from './page-notice.ts';
import { ErrorPanel } from './ErrorPanel.tsx';
import { DEFAULT_APP_CONFIG } from './default-config.ts';
import { Pinmap } from './Pinmap.tsx';

type ConfigSource =
  | { state: 'loading' }
  | { state: 'ready'; config: Record<string, unknown> }
  | { state: 'failed'; message: string };

/**
 * The app page: a full-window Pinmap whose config comes from `?config=<url>` where the site allows
 * it (`addressConfig`: its own origin by default; else a notice says why not), or the site's own
 * (the embedded basemap), whose view comes from `?view=`, and whose camera lives in the address.
 */
export function App() {
  // The address as the page opened: later camera moves rewrite the hash, and must not feed back
  // into the config (that would make a new map).
  const [opened] = useState(() => ({ search: window.location.search, hash: window.location.hash, href: window.location.href }));
  const [address] = useState(() => configOfAddress(opened.search, opened.href));
  const configUrl = address.url;
  const [source, setSource] = useState<ConfigSource>(() => (configUrl === undefined ? { state: 'ready', config: SITE_CONFIG } : { state: 'loading' }));

  useEffect(() => {
    if (configUrl === undefined) return;
    const controller = new AbortController();
    const url = configUrl;
    loadConfig(url, controller.signal).then((loaded) => setSource(loaded.state === 'ready' ? { ...loaded, config: withinSiteRules(loaded.config, url, opened.href) } : loaded), (error: unknown) => {
      if (!controller.signal.aborted) setSource({ state: 'failed', message: MESSAGES.configFailed(url, reasonOf(error)) });
    });
    return () => controller.abort();
  }, [configUrl, opened]);

  const shown = useMemo(() => (source.state === 'ready' ? withAddress(source.config, opened) : undefined), [source, opened]);
  const notice = [address.refusal, shown?.notice].filter((text) => text !== undefined).join(' ') || undefined;

  if (source.state === 'loading') return <div className="pinmap" data-map-state="loading" />;
  if (source.state === 'failed') {
    return (
      <div className="pinmap" data-map-state="error">
        <ErrorPanel title="This map's configuration could not be loaded" message={source.message} />
      </div>
    );
  }
  return (
    <PageNoticeContext value={notice}>
      <Pinmap config={shown?.config} />
    </PageNoticeContext>
  );
}

/** The site's own config: the app's built-in one, whose `addressConfig` and `addressPins` say what a link may replace. */
const SITE_CONFIG: Record<string, unknown> = DEFAULT_APP_CONFIG;

/**
 * The config `?config=` of the address names, as an absolute URL, where the site's `addressConfig`
 * allows it (the page's own origin unless it allows more); else why not, and the site's config stays.
 */
function configOfAddress(search: string, pageHref: string): { url?: string; refusal?: string } {
  const value = new URLSearchParams(search).get('config');
  if (value === null) return {};
  const refusal = addressConfigRefusal(value, SITE_CONFIG.addressConfig ?? 'same-origin', pageHref);
  return refusal === undefined ? { url: new URL(value, pageHref).href } : { refusal };
}

/**
 * A config read through the address: one on the page's own origin is the site's own file; one from
 * another origin (that `addressConfig` allows) cannot widen what the site lets a link replace, so
 * its `addressPins` and `addressConfig` are kept only as far as the site's allow (`narrowerOrigins`).
 */
function withinSiteRules(config: Record<string, unknown>, url: string, pageHref: string): Record<string, unknown> {
  if (isPageOrigin(url, pageHref)) return config;
  return {
    ...config,
    addressPins: narrowerOrigins(SITE_CONFIG.addressPins ?? 'same-origin', config.addressPins ?? 'same-origin'),
    addressConfig: narrowerOrigins(SITE_CONFIG.addressConfig ?? 'same-origin', config.addressConfig ?? 'same-origin'),
  };
}

/**
 * Fetches `?config=` through the request path: no config has come yet to set its limits, so the
 * defaults of `pinsTimeout` and `maxPinBytes` hold (a server that never answers is an error after
 * 10 s, not a page loading for ever).
 */
async function loadConfig(url: string, signal: AbortSignal): Promise<ConfigSource> {
  let fetched;
  try {
    fetched = await fetchBytes(url, { signal, timeout: DEFAULTS.pinsTimeout, maxBytes: DEFAULTS.maxPinBytes });
  } catch (error) {
    throw error instanceof RequestError && error.failure === 'http' ? new Error(httpFailure(error.status)) : error;
  }
  const text = new TextDecoder().decode(fetched.bytes);
  if (isHtmlAnswer(fetched.response.headers.get('Content-Type'), text)) throw new Error(MESSAGES.htmlAnswer('JSON'));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('the file is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('the file is not a JSON object');
  return { state: 'ready', config: body as Record<string, unknown> };
}


/**
 * The address wins over the config for what the user was looking at: the camera from
 * `#map=`, the view from `?view=`, the pins from `?pins=<url>` (where config `addressPins`
 * allows them: else a notice says why not, and the config's pins stay), the open pin from
 * `?pin=<id>` and the legend's hidden categories from `?hide=`. A camera that does not parse is ignored.
 */
function withAddress(config: Record<string, unknown>, location: Pick<Location, 'search' | 'hash' | 'href'>): { config: Record<string, unknown>; notice?: string } {
  const next: Record<string, unknown> = { hash: true, ...config };
  let notice: string | undefined;
  const view = parseView(location.search);
  if (view) next.view = view;
  const params = new URLSearchParams(location.search);
  const pins = params.get('pins');
  if (pins) {
    notice = addressPinsRefusal(pins, config.addressPins ?? 'same-origin', location.href);
    if (notice === undefined) next.pins = pins;
  }
  const pin = params.get('pin');
  if (pin) next.openPin = pin;
  const hidden = parseHidden(location.search);
  if (hidden) next.hiddenCategories = hidden;
  const camera = parseMapHash(location.hash);
  if (camera) {
    const minPitch = typeof config.minPitch === 'number' ? config.minPitch : LIMITS.minPitch;
    const maxPitch = typeof config.maxPitch === 'number' ? config.maxPitch : LIMITS.maxPitch;
    Object.assign(next, { ...camera, pitch: Math.min(Math.max(camera.pitch, minPitch), maxPitch) });
  }
  return notice === undefined ? { config: next } : { config: next, notice };
}
