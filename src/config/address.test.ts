import { describe, expect, it } from 'vitest';
import { addressConfigRefusal, addressPinsRefusal, formatMapHash, isPageOrigin, narrowerOrigins, parseHidden, parseMapHash, parseView, withHidden } from './address.ts';

describe('parseMapHash', () => {
  it('reads zoom/lat/lng/bearing/pitch', () => {
    expect(parseMapHash('#map=4/48.85/2.35/30/20')).toEqual({ zoom: 4, center: [2.35, 48.85], bearing: 30, pitch: 20 });
  });

  it('defaults bearing and pitch to 0 and finds map= among other entries', () => {
    expect(parseMapHash('#foo=1&map=2.5/-33.9/151.2')).toEqual({ zoom: 2.5, center: [151.2, -33.9], bearing: 0, pitch: 0 });
  });

  it.each(['', '#', '#map=', '#map=1/2', '#map=a/b/c', '#map=3/95/0', '#map=3/0/181', '#map=3/1e999/0', '#map=1/2/3/4/5/6', '#map=%E0%A4%A', '#map=1/2/3/x', '#zoom=3', '#map=0x10/1/1', '#map= 1/2/3'])(
    'ignores %j',
    (hash) => {
      expect(parseMapHash(hash)).toBeUndefined();
    },
  );
});

describe('formatMapHash', () => {
  it('writes only as many decimals as the zoom needs (about a pixel) and omits zero bearing and pitch', () => {
    expect(formatMapHash({ zoom: 1, center: [10.123456, 20.987654], bearing: 0, pitch: 0 })).toBe('#map=1/21/10.1');
    expect(formatMapHash({ zoom: 12.3456, center: [2.3522219, 48.856614], bearing: 0, pitch: 0 })).toBe('#map=12.35/48.85661/2.35222');
  });

  it('writes bearing, and pitch only when needed', () => {
    expect(formatMapHash({ zoom: 3, center: [0, 0], bearing: 45.04, pitch: 0 })).toBe('#map=3/0/0/45');
    expect(formatMapHash({ zoom: 3, center: [0, 0], bearing: 0, pitch: 30 })).toBe('#map=3/0/0/0/30');
  });

  it('keeps the other entries of the hash', () => {
    expect(formatMapHash({ zoom: 3, center: [1, 2], bearing: 0, pitch: 0 }, '#map=1/1/1&layer=relief')).toBe('#map=3/2/1&layer=relief');
  });

  it('round-trips through parseMapHash', () => {
    const camera = { zoom: 5.5, center: [-73.986, 40.748] as [number, number], bearing: -20, pitch: 45 };
    expect(parseMapHash(formatMapHash(camera))).toEqual(camera);
  });
});

describe('parseView', () => {
  it('reads vector or hybrid and ignores anything else', () => {
    expect(parseView('?view=hybrid')).toBe('hybrid');
    expect(parseView('?config=x&view=vector')).toBe('vector');
    expect(parseView('?view=satellite')).toBeUndefined();
    expect(parseView('')).toBeUndefined();
  });
});

describe('?hide= (parseHidden, withHidden)', () => {
  it('reads the hidden categories, commas between them', () => {
    expect(parseHidden('?hide=cafe,bar&view=hybrid')).toEqual(['cafe', 'bar']);
    expect(parseHidden('?hide=')).toEqual([]);
    expect(parseHidden('?view=hybrid')).toBeUndefined();
  });

  it('writes them readably and keeps the rest of the address; none removes it', () => {
    expect(withHidden('https://x.test/?view=hybrid#map=2/0/0', ['cafe', 'bar'])).toBe('https://x.test/?view=hybrid&hide=cafe,bar#map=2/0/0');
    expect(withHidden('https://x.test/?hide=cafe&pin=a', [])).toBe('https://x.test/?pin=a');
  });

  it('round-trips names with commas, percent signs and other characters', () => {
    const names = ['a,b', '100%', '%2C', 'Café & Bar', 'ü/ß?#'];
    expect(parseHidden(new URL(withHidden('https://x.test/', names)).search)).toEqual(names);
  });
});

describe('?config= (addressConfigRefusal): the rule ?pins= follows', () => {
  const PAGE = 'https://maps.example.org/app/?config=x';

  it("takes a config on the page's own origin, as a path or a URL", () => {
    expect(addressConfigRefusal('/site.json', 'same-origin', PAGE)).toBeUndefined();
    expect(addressConfigRefusal('configs/site.json', 'same-origin', PAGE)).toBeUndefined();
    expect(addressConfigRefusal('https://maps.example.org/site.json', undefined, PAGE)).toBeUndefined();
  });

  it('refuses another origin, naming the link and why, unless addressConfig allows it', () => {
    expect(addressConfigRefusal('https://evil.example/site.json', 'same-origin', PAGE)).toBe(
      "The config of this link (https://evil.example/site.json) is not used, the site's own is: this map takes configs from its own site only",
    );
    // Look-alike hosts, other ports and schemes are other origins.
    for (const other of ['https://maps.example.org.evil.test/a.json', 'https://maps.example.org:8443/a.json', 'http://maps.example.org/a.json', '//evil.example/a.json']) {
      expect(addressConfigRefusal(other, 'same-origin', PAGE), other).toMatch(/from its own site only$/);
    }
    expect(addressConfigRefusal('https://configs.example.com/a.json', ['https://configs.example.com/'], PAGE)).toBeUndefined();
    expect(addressConfigRefusal('https://evil.example/a.json', ['https://configs.example.com'], PAGE)).toMatch(/this map takes configs from its own site and https:\/\/configs\.example\.com only$/);
    expect(addressConfigRefusal('https://evil.example/a.json', 'any', PAGE)).toBeUndefined();
  });

  it('refuses what is not an http(s) URL or a path, whatever the rule', () => {
    for (const value of ['javascript:alert(1)', 'data:application/json,{}', 'pmtiles://https://maps.example.org/a.pmtiles', 'file:///etc/passwd', '']) {
      expect(addressConfigRefusal(value, 'any', PAGE), value).toMatch(/is not used, the site's own is: it is not an http\(s\) URL or a path$/);
    }
  });

  it('words ?pins= as before', () => {
    expect(addressPinsRefusal('https://evil.example/p.geojson', 'same-origin', PAGE)).toBe('The pins of this link (https://evil.example/p.geojson) are not shown: this map takes pins from its own site only');
    expect(addressPinsRefusal('pmtiles://https://maps.example.org/p.pmtiles', 'same-origin', PAGE)).toBeUndefined();
  });
});

describe('narrowerOrigins: a config from another origin cannot widen the address rules', () => {
  it("keeps the site's rule when the config's is wider, the config's when narrower", () => {
    expect(narrowerOrigins('same-origin', 'any')).toBe('same-origin');
    expect(narrowerOrigins('same-origin', ['https://evil.example'])).toBe('same-origin');
    expect(narrowerOrigins(['https://a.example'], 'any')).toEqual(['https://a.example']);
    expect(narrowerOrigins('any', ['https://a.example'])).toEqual(['https://a.example']);
    expect(narrowerOrigins('any', 'same-origin')).toBe('same-origin');
    expect(narrowerOrigins('any', 'any')).toBe('any');
  });

  it('keeps the origins both lists name, else the own origin only; reads anything else as same-origin', () => {
    expect(narrowerOrigins(['https://a.example', 'https://b.example/'], ['https://b.example', 'https://c.example'])).toEqual(['https://b.example']);
    expect(narrowerOrigins(['https://a.example'], ['https://c.example'])).toBe('same-origin');
    expect(narrowerOrigins('any', 42)).toBe('same-origin');
    expect(narrowerOrigins(undefined, 'any')).toBe('same-origin');
  });
});

describe('isPageOrigin', () => {
  it("tells a path or a URL of the page's own origin from another", () => {
    expect(isPageOrigin('/a.json', 'https://maps.example.org/app/')).toBe(true);
    expect(isPageOrigin('https://maps.example.org:443/a.json', 'https://maps.example.org/app/')).toBe(true);
    expect(isPageOrigin('https://evil.example/a.json', 'https://maps.example.org/app/')).toBe(false);
  });
});
