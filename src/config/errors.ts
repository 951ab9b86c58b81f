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
  stylesheetMissing: (library: string, file: string) =>
    `Pinmap: the ${library} style sheet (${file}) is not on the page; the map may look broken. Include it, or import 'pinmap/style.css'.`,
} as const;

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
