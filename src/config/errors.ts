/**
 * The messages users read (PRODUCT.md, "Error catalogue"). Tests match these exact texts.
 */
export const MESSAGES = {
  webglFailed: 'Failed to initialize WebGL',
  containerNotFound: 'Container not found',
  containerInvalid: 'Invalid type: container must be a String or HTMLElement',
  styleFailed: (url: string, reason: string) => `Could not load the map style from ${url}: ${reason}`,
  styleTimedOut: (url: string, ms: number) => `Could not load the map style from ${url}: the server did not answer within ${ms / 1000} s`,
  configFailed: (url: string, reason: string) => `Could not load the config from ${url}: ${reason}`,
  archiveFailed: (url: string, reason: string) => `Could not read the map tiles archive ${url}: ${reason}`,
  /** A file (pins, config) that the server answered with a web page: a wrong path under a server that answers every path with its app. */
  htmlAnswer: (expected: string) => `the server answered an HTML page, not ${expected}: is the path right?`,
  // Why a request failed (request-path.ts); the callers above name what was asked for.
  requestRedirected:
    'the server answered with a redirect, which is not followed for a request that carries the access token in a header (it could take the token to another origin): serve the file without a redirect, or send the token as the access_token parameter',
  requestTimedOut: (ms: number) => `the server did not answer within ${ms / 1000} s`,
  requestStalled: (ms: number) => `the download stalled (nothing came for ${ms / 1000} s)`,
  requestTooLarge: (limit: number, option: string | undefined) => `the file is larger than ${formatBytes(limit)} once decompressed${option ? ` (the ${option} limit)` : ''}`,
  addressPinsRefused: (pins: string, reason: string) => `The pins of this link (${pins}) are not shown: ${reason}`,
  addressConfigRefused: (config: string, reason: string) => `The config of this link (${config}) is not used, the site's own is: ${reason}`,
  blockedByPolicy: (directive: string, origin: string) => `the page's Content Security Policy does not allow it (${directive}): add ${origin} to ${directive}`,
  /** The browser reports a redirect the policy refused under the URL asked for (the page's own), never where it pointed. */
  redirectBlockedByPolicy: (directive: string) =>
    `the server redirected it to an origin the page's Content Security Policy does not allow (${directive}): serve the file without the redirect, or add the origin it redirects to to ${directive}`,
  stylesheetMissing: (library: string, file: string) =>
    `Pinmap: the ${library} style sheet (${file}) is not on the page; the map may look broken. Include it, or import 'pinmap/style.css'.`,
} as const;

/** A byte count as people read it: `512 bytes`, `1.5 MB`, `200 MB` (decimal units). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const [value, unit] = bytes < 1e6 ? [bytes / 1e3, 'kB'] : bytes < 1e9 ? [bytes / 1e6, 'MB'] : [bytes / 1e9, 'GB'];
  return `${Number(value.toPrecision(3))} ${unit}`;
}

/** Reads a useful reason out of whatever was thrown or fired. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status > 0) return `HTTP ${status}${error.message ? ` (${error.message})` : ''}`;
    return error.message || error.name;
  }
  return String(error);
}

/** What an HTTP error status says about a file asked for: `not found (HTTP 404)`, else `HTTP <status>`. */
export function httpFailure(status: number): string {
  return status === 404 || status === 410 ? `not found (HTTP ${status})` : `HTTP ${status}`;
}

/** Whether a response's type or first characters say it is an HTML page (a server's page for a wrong path). */
export function isHtmlAnswer(contentType: string | null, text: string): boolean {
  return /^\s*text\/html\b/i.test(contentType ?? '') || /^\uFEFF?\s*</.test(text);
}
