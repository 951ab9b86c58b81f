/**
 * What the page's Content Security Policy refused. A request the policy blocks fails in `fetch`
 * as a bare network error ("Failed to fetch"), which says nothing of the policy; the browser
 * tells the document what it blocked in a `securitypolicyviolation` event instead. Requests made
 * in the page (every request of Pinmap goes through `request-path.ts` there) are matched to the
 * violation the browser reported for their URL, so the failure can name the directive and the
 * origin to add to it.
 */

/** A refusal of the page's policy: the directive that refused, and the origin to add to it. */
export interface PolicyViolation {
  /** The directive that refused the request, e.g. `connect-src`. */
  directive: string;
  /** The origin the directive would need, e.g. `http://tiles.example.com`. */
  origin: string;
}

/** Violations seen lately, newest last, by blocked URL. */
const recent: { url: string; violation: PolicyViolation }[] = [];
const KEEP = 50;
let watching = false;

/** Starts listening to the document's violations (once per page); a no-op outside a browser page. */
export function watchPolicyViolations(): void {
  if (watching || typeof document === 'undefined') return;
  watching = true;
  document.addEventListener('securitypolicyviolation', (event) => {
    let origin: string;
    try {
      origin = new URL(event.blockedURI).origin;
    } catch {
      return; // 'inline', 'eval' and the like: no request of Pinmap's
    }
    recent.push({ url: event.blockedURI, violation: { directive: event.effectiveDirective, origin } });
    if (recent.length > KEEP) recent.shift();
  });
}

/**
 * The violation the browser reported for a request of `url` that failed as a network error, if
 * the policy refused it. The event may come a task after the failed fetch, so this waits for it.
 */
export async function policyViolationFor(url: string): Promise<PolicyViolation | undefined> {
  if (!watching) return undefined;
  const find = () => recent.findLast((entry) => entry.url === url || sameWithoutQuery(entry.url, url))?.violation;
  for (let attempt = 0; attempt < 3; attempt++) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return find();
}

/** Browsers report a blocked URL without its fragment, and for some directives without its query. */
function sameWithoutQuery(reported: string, requested: string): boolean {
  try {
    const a = new URL(reported);
    const b = new URL(requested);
    return a.origin === b.origin && a.pathname === b.pathname && (a.search === '' || a.search === b.search);
  } catch {
    return false;
  }
}
