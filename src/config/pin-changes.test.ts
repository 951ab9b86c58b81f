import { describe, expect, it } from 'vitest';
import { checkFeedEvent, checkPinChanges, PinChangesError } from './pin-changes.ts';
import { parseConfig, safeParseConfig } from './schema.ts';

describe('checkPinChanges', () => {
  it('takes add, update and remove, with numeric ids as text', () => {
    const feature = { type: 'Feature', id: 'bus-1', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'Bus 1' } };
    expect(checkPinChanges({ add: [feature], remove: ['a', 7] })).toEqual({ add: [feature], update: [], remove: ['a', '7'] });
    expect(checkPinChanges({})).toEqual({ add: [], update: [], remove: [] });
  });

  it('names what is wrong', () => {
    expect(() => checkPinChanges(null)).toThrow(PinChangesError);
    expect(() => checkPinChanges(null)).toThrow('updatePins: the changes must be an object { add, update, remove }');
    expect(() => checkPinChanges({ remove: ['a', {}] })).toThrow('updatePins: remove[1] must be a pin id (a string or a number)');
    expect(() => checkPinChanges({ add: 'x' })).toThrow('updatePins: add must be an array of GeoJSON Features');
    expect(() => checkPinChanges({ update: [3] })).toThrow('updatePins: update[0] must be a GeoJSON Feature (an object)');
    expect(() => checkPinChanges({ added: [] })).toThrow('updatePins: added is not a change (add, update or remove)');
  });
});

describe('pinTransition', () => {
  it('is 300 ms by default and takes 0 (jump) to 5000', () => {
    expect(parseConfig({}).pinTransition).toBe(300);
    expect(parseConfig({ pinTransition: 0 }).pinTransition).toBe(0);
  });

  it('names a bad value', () => {
    const result = safeParseConfig({ pinTransition: -5 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.problems).toEqual([{ option: 'pinTransition', message: 'must be 0 or more (ms)' }]);
    const slow = safeParseConfig({ pinTransition: 60_000 });
    if (!slow.ok) expect(slow.error.problems).toEqual([{ option: 'pinTransition', message: 'must be at most 5000 (ms)' }]);
    expect(slow.ok).toBe(false);
  });
});

describe('checkFeedEvent (a pin stream\'s event)', () => {
  const bus = { type: 'Feature', id: 'bus-1', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'Bus 1' } };

  it('reads the changes and what the sender skipped', () => {
    expect(checkFeedEvent(JSON.stringify({ update: [bus], remove: [3] }))).toEqual({ changes: { add: [], update: [bus], remove: ['3'] } });
    expect(checkFeedEvent(JSON.stringify({ add: [bus], skipped: ['line 7 ("Quay"): latitude 95 is outside -90..90'] }))).toEqual({
      changes: { add: [bus], update: [], remove: [] },
      skipped: ['line 7 ("Quay"): latitude 95 is outside -90..90'],
    });
    expect(checkFeedEvent('{"skipped":[]}')).toEqual({ changes: { add: [], update: [], remove: [] }, skipped: [] });
  });

  it('names what is wrong with a malformed event', () => {
    expect(() => checkFeedEvent('{"add": [')).toThrow(/^it is not JSON \(/);
    expect(() => checkFeedEvent('[1]')).toThrow('it must be a JSON object { add, update, remove }');
    expect(() => checkFeedEvent('{"remove": ["a", {}]}')).toThrow('remove[1] must be a pin id (a string or a number)');
    expect(() => checkFeedEvent('{"moved": []}')).toThrow('moved is not a change (add, update or remove)');
    expect(() => checkFeedEvent('{"skipped": "row 3"}')).toThrow('its skipped must be an array of texts');
  });
});

describe('pinsRefresh and pinsStream', () => {
  it('take seconds and a URL', () => {
    const config = parseConfig({ pins: 'buses.csv', pinsRefresh: 5, pinsStream: '/buses/stream' });
    expect(config.pinsRefresh).toBe(5);
    expect(config.pinsStream).toBe('/buses/stream');
    expect(parseConfig({}).pinsRefresh).toBeUndefined();
  });

  it('name a bad value', () => {
    const problems = (input: Record<string, unknown>) => {
      const result = safeParseConfig(input);
      return result.ok ? [] : result.error.problems;
    };
    expect(problems({ pins: 'a.csv', pinsRefresh: 0 })).toEqual([{ option: 'pinsRefresh', message: 'must be at least 1 (seconds)' }]);
    expect(problems({ pins: 'a.csv', pinsRefresh: '5s' })).toEqual([{ option: 'pinsRefresh', message: 'must be a number of seconds' }]);
    expect(problems({ pins: 'a.csv', pinsRefresh: 100_000 })).toEqual([{ option: 'pinsRefresh', message: 'must be at most 86400 (seconds, a day)' }]);
    expect(problems({ pinsRefresh: 5 })).toEqual([{ option: 'pinsRefresh', message: 'needs pins given as a URL (a GeoJSON or CSV file) to read again' }]);
    expect(problems({ pins: 'pmtiles://pins.pmtiles', pinsRefresh: 5 })[0]?.message).toMatch(/^pre-tiled pins \(pmtiles:\/\/\) stay as they were tiled/);
    expect(problems({ pinsStream: 'javascript:alert(1)' })).toEqual([{ option: 'pinsStream', message: 'must be an http(s) URL or a path relative to the page' }]);
    expect(problems({ pins: 'pmtiles://pins.pmtiles', pinsStream: '/live' })[0]?.option).toBe('pinsStream');
  });
});
