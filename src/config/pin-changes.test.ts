import { describe, expect, it } from 'vitest';
import { checkPinChanges, PinChangesError } from './pin-changes.ts';
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
