import { describe, expect, it } from 'vitest';
import { APP_PIN_LIMIT, takeAppPins } from './app-pins.ts';

describe('takeAppPins', () => {
  const ids = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `pin-${String(from + i)}`);

  it('takes every id up to the limit, once each, in the order given', () => {
    expect(APP_PIN_LIMIT).toBe(100);
    expect(takeAppPins(['b', 'a', 'b'])).toEqual({ ids: ['b', 'a'], over: false });
    expect(takeAppPins(ids(100))).toEqual({ ids: ids(100), over: false });
    expect(takeAppPins([])).toEqual({ ids: [], over: false });
  });

  it('takes the first 100 of more and says some were left out', () => {
    expect(takeAppPins(ids(101))).toEqual({ ids: ids(100), over: true });
    expect(takeAppPins(ids(250))).toEqual({ ids: ids(100), over: true });
  });

  it('counts an id given twice once: 100 distinct ids and repeats are not over', () => {
    expect(takeAppPins([...ids(100), 'pin-3', 'pin-99'])).toEqual({ ids: ids(100), over: false });
  });
});
