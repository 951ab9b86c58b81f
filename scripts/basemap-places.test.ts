import { describe, expect, it } from 'vitest';
import { LAST_THINNED_ZOOM, PLACE_MINZOOM_BY_RANK, placeRank, placeTextSize, thinPlaces, type Place } from './basemap-places.ts';

/** A place of `rank` at a point, with its rank's first zoom, as `loadPlaces` makes them before thinning. */
const place = (name: string, rank: number, lon: number, lat: number): Place => ({
  type: 'Feature',
  properties: { name, population: 0, capital: false, rank, minzoom: PLACE_MINZOOM_BY_RANK[rank - 1]! },
  geometry: { type: 'Point', coordinates: [lon, lat] },
});

/** Metres to degrees of longitude at the equator. */
const km = (n: number) => n / 111.32;

describe('places thinned per zoom', () => {
  it('ranks by population, capitals one rank up', () => {
    expect(placeRank(6_000_000, false)).toBe(1);
    expect(placeRank(60_000, false)).toBe(6);
    expect(placeRank(20_000, false)).toBe(7);
    expect(placeRank(1_500, false)).toBe(8);
    expect(placeRank(1_500, true)).toBe(7);
    expect(placeRank(6_000_000, true)).toBe(1);
  });

  it('gives a place alone its rank\'s first zoom', () => {
    const places = [place('Alone', 8, 10, 0)];
    thinPlaces(places);
    expect(places[0]!.properties.minzoom).toBe(PLACE_MINZOOM_BY_RANK[7]);
  });

  it('keeps the biggest places at their rank\'s zoom, whatever is around them', () => {
    const places = [place('Big', 1, 10, 0), place('Big too', 2, 10 + km(1), 0)];
    thinPlaces(places);
    expect(places.map((p) => p.properties.minzoom)).toEqual([PLACE_MINZOOM_BY_RANK[0], PLACE_MINZOOM_BY_RANK[1]]);
  });

  it('shows a smaller place next to a bigger one only from the zoom where their labels clear each other', () => {
    // A town 3 km east of a city: the city's name covers it until the map is zoomed in far enough.
    const places = [place('Cityname', 6, 10, 0), place('Town', 7, 10 + km(3), 0), place('Far town', 7, 12, 0)];
    thinPlaces(places);
    const [city, town, far] = places.map((p) => p.properties.minzoom);
    expect(city).toBe(PLACE_MINZOOM_BY_RANK[5]);
    expect(far).toBe(PLACE_MINZOOM_BY_RANK[6]);
    expect(town).toBeGreaterThan(PLACE_MINZOOM_BY_RANK[6]!);
    // 3 km is about 39 px at zoom 10, 79 at 11 and 157 at 12 (512 px tiles); the city's label and
    // the gap after it reach about 81 px east of its point.
    expect(town).toBe(12);
  });

  it('tries bigger places first, so a village never takes a town\'s room', () => {
    const places = [place('Town', 7, 10, 0), place('Village', 8, 10 + km(0.5), 0)];
    thinPlaces(places);
    expect(places[0]!.properties.minzoom).toBe(PLACE_MINZOOM_BY_RANK[6]);
    expect(places[1]!.properties.minzoom).toBeGreaterThan(PLACE_MINZOOM_BY_RANK[6]!);
  });

  it('still names a place with no room by the last thinned zoom, from the zoom after it', () => {
    const places = [place('Here', 7, 10, 0), place('Same spot', 8, 10, 0)];
    thinPlaces(places);
    expect(places[1]!.properties.minzoom).toBe(LAST_THINNED_ZOOM + 1);
  });

  it('sizes labels as the style interpolates them', () => {
    expect(placeTextSize(1, 0)).toBe(12);
    expect(placeTextSize(1, 6)).toBe(15);
    expect(placeTextSize(1, 4)).toBe(13.5);
    expect(placeTextSize(8, 8)).toBe(11);
    expect(placeTextSize(8, 20)).toBe(11.5);
  });
});
