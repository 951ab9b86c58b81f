import { describe, expect, it } from 'vitest';
import type { Pin } from './types.ts';
import { parsePins } from './data.ts';
import { parseCsvPins } from './csv.ts';
import { listDetail, placeText, repeatedTitles } from './list-detail.ts';

const pin = (id: string, title: string, extra: Partial<Pin> = {}): Pin => ({ id, title, description: '', lngLat: [2.35222, 48.85661], options: {}, ...extra });

describe('the list detail of entries of one title', () => {
  it('finds the titles more than one pin has', () => {
    const pins = [pin('a', '12'), pin('b', '14'), pin('c', '12'), pin('d', 'Rue 12'), pin('e', '12')];
    expect(repeatedTitles(pins)).toEqual(new Set(['12']));
    expect(repeatedTitles([pin('a', '12'), pin('b', '12 ')])).toEqual(new Set());
    expect(repeatedTitles([])).toEqual(new Set());
  });

  it('writes a place as latitude, longitude with hemispheres, 4 decimals', () => {
    expect(placeText([2.35222, 48.85661])).toBe('48.8566° N, 2.3522° E');
    expect(placeText([-74.00597, -33.86882])).toBe('33.8688° S, 74.0060° W');
    expect(placeText([0.00001, -0.00001])).toBe('0.0000° N, 0.0000° E');
    // A longitude of another copy of the world, as in the first.
    expect(placeText([362.35222, 48.85661])).toBe('48.8566° N, 2.3522° E');
  });

  it("shows the config's field where the pin has it, else the pin's place", () => {
    const withAddress = pin('a', '12', { fields: { address: 'Hauptstraße 12, Zürich' }, description: 'Ground floor\nBuilt 1910', category: 'home' });
    expect(listDetail(withAddress, 'address')).toBe('Hauptstraße 12, Zürich');
    expect(listDetail(withAddress, 'description')).toBe('Ground floor');
    expect(listDetail(withAddress, 'category')).toBe('home');
    expect(listDetail(pin('b', '12'), 'address')).toBe('48.8566° N, 2.3522° E');
    expect(listDetail(withAddress, undefined)).toBe('48.8566° N, 2.3522° E');
  });

  it('has the field read with the pins, from a GeoJSON property or a CSV column', () => {
    const geojson = { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'a', geometry: { type: 'Point', coordinates: [8.54, 47.37] }, properties: { title: '12', address: 'Hauptstraße 12' } }] };
    const [fromJson] = parsePins(geojson, {}, { listDetailField: 'address' }).pins;
    expect(listDetail(fromJson!, 'address')).toBe('Hauptstraße 12');
    const [fromCsv] = parseCsvPins('title,lat,lng,address\n12,47.37,8.54,Bahnhofweg 12\n', {}, { listDetailField: 'address' }).pins;
    expect(listDetail(fromCsv!, 'address')).toBe('Bahnhofweg 12');
  });
});
