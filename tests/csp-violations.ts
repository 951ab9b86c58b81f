import type { Page } from '@playwright/test';

/** One `securitypolicyviolation` event, as a page of the test saw it. */
export interface CspViolation {
  directive: string;
  blocked: string;
  source: string;
  disposition: string;
  page: string;
}

/**
 * Records what the Content Security Policy refused in this page, across its navigations: every
 * `securitypolicyviolation` event of its documents (listened to from an init script, so from the
 * first byte on, and handed to the test as it happens), and every console message about the
 * policy, from the page and from its workers (a worker's refusals are only told to its own
 * console). Install before the page loads.
 */
export async function watchCsp(page: Page): Promise<{ violations: CspViolation[]; messages: string[] }> {
  const violations: CspViolation[] = [];
  const messages: string[] = [];
  await page.exposeFunction('__pinmapCspViolation', (violation: CspViolation) => void violations.push(violation));
  await page.addInitScript(() => {
    const report = (window as unknown as { __pinmapCspViolation: (violation: unknown) => void }).__pinmapCspViolation;
    document.addEventListener(
      'securitypolicyviolation',
      (event) =>
        report({
          directive: event.effectiveDirective,
          blocked: event.blockedURI,
          source: `${event.sourceFile}:${event.lineNumber}`,
          disposition: event.disposition,
          page: location.pathname,
        }),
      { capture: true },
    );
  });
  const isAboutCsp = (text: string) => /Content Security Policy/i.test(text);
  page.on('console', (message) => {
    if (isAboutCsp(message.text())) messages.push(message.text());
  });
  page.on('worker', (worker) =>
    worker.on('console', (message) => {
      if (isAboutCsp(message.text())) messages.push(`worker ${worker.url()}: ${message.text()}`);
    }),
  );
  return { violations, messages };
}
