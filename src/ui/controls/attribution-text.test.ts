import { describe, expect, it } from 'vitest';
import { attributionParts, decodeEntities, gatherAttributions } from './attribution-text.ts';

describe('gatherAttributions', () => {
  it('puts custom credits first, drops blanks and repeats, sorts by length and drops entries contained in later ones', () => {
    expect(gatherAttributions(['© Example'], ['© OpenStreetMap contributors', '', '  ', '© Example', 'OpenStreetMap', '© OpenStreetMap contributors'])).toEqual([
      '© Example',
      '© OpenStreetMap contributors',
    ]);
  });

  it('gives nothing for no sources', () => {
    expect(gatherAttributions([], [])).toEqual([]);
  });
});

describe('attributionParts', () => {
  it('keeps text and http(s) links, with entities decoded', () => {
    expect(attributionParts('<a href="https://www.naturalearthdata.com/" target="_blank">Natural Earth</a> (public domain) &copy; A&amp;B')).toEqual([
      { text: 'Natural Earth', href: 'https://www.naturalearthdata.com/' },
      { text: ' (public domain) © A&B' },
    ]);
  });

  it('drops scripts, styles, event handlers and other tags, and never makes a javascript: or data: link', () => {
    const parts = attributionParts(
      '<script>alert(1)</script><img src=x onerror="alert(2)"><b>Bold</b> <a href="javascript:alert(3)">bad</a> <a href=\'data:text/html,x\'>data</a><style>a{}</style><a href="//evil.example">rel</a>',
    );
    expect(parts).toEqual([{ text: 'Bold bad datarel' }]);
    expect(JSON.stringify(parts)).not.toMatch(/alert|onerror|<|>/);
  });

  it('keeps angle brackets that are text as text', () => {
    expect(attributionParts('a &lt;b&gt; c')).toEqual([{ text: 'a <b> c' }]);
    expect(attributionParts('1 < 2')).toEqual([{ text: '1 < 2' }]);
  });

  it('handles an unclosed link, comments and an unclosed script', () => {
    expect(attributionParts('<!-- hidden -->x <a href="http://a.example/">open')).toEqual([{ text: 'x ' }, { text: 'open', href: 'http://a.example/' }]);
    expect(attributionParts('ok<script>while(1){}')).toEqual([{ text: 'ok' }]);
  });
});

describe('decodeEntities', () => {
  it('decodes named and numeric references and leaves unknown ones', () => {
    expect(decodeEntities('&#169; &#xA9; &nbsp;&unknown; &#0;')).toBe('© © \u00a0&unknown; \ufffd');
  });
});
