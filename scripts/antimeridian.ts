import type { Position } from 'geojson';

/**
 * Natural Earth (through world-atlas) keeps a spherical topology: a ring that crosses the
 * antimeridian (Eurasia at Chukotka, Wrangel Island, a piece of Fiji) jumps from about 180° to
 * about -180°, and Antarctica's coast goes once around the South Pole. Drawn on a plane, such a
 * jump is an edge right across the world. This makes a line continuous instead: after a jump of
 * more than 180° in longitude, the rest of the line is shifted by 360°. Returns the unwrapped line
 * and the net shift (non-zero for a ring that goes around a pole).
 */
export function unwrapLine(line: Position[]): { line: Position[]; shift: number } {
  let offset = 0;
  let previous: number | undefined;
  const result = line.map(([lon = 0, lat = 0]): Position => {
    if (previous !== undefined) {
      const delta = lon + offset - previous;
      if (delta > 180) offset -= 360;
      else if (delta < -180) offset += 360;
    }
    previous = lon + offset;
    return [lon + offset, lat];
  });
  return { line: result, shift: offset };
}
