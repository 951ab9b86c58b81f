import { describe, expect, it } from 'vitest';
import { linkTarget } from './popup-content.ts';

describe('linkTarget: only absolute http(s) URLs become popup links', () => {
  it.each([
    ['https://www.geonames.org/2988507', 'https://www.geonames.org/2988507'],
    ['http://example.org/a?b=1#c', 'http://example.org/a?b=1#c'],
    ['HTTPS://EXAMPLE.ORG/', 'https://example.org/'],
  ])('%s links to %s', (url, href) => {
    expect(linkTarget(url)).toBe(href);
  });

  it.each([
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'mailto:someone@example.org',
    '/relative/path',
    '//example.org/protocol-relative',
    'not a url',
    '',
  ])('%j is no link', (url) => {
    expect(linkTarget(url)).toBeUndefined();
  });

  it('no URL, no link', () => {
    expect(linkTarget(undefined)).toBeUndefined();
  });
});
