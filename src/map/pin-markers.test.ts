import { describe, expect, it } from 'vitest';
import type { Pin } from './pin-data.ts';
import { pinStyleKey } from './pin-icon.ts';
import { sharedStyles } from './pin-markers.ts';

const pin = (id: string, options: Pin['options']): Pin => ({ id, title: id, description: '', lngLat: [0, 0], options });

describe('sharedStyles', () => {
  it('gives every pin of one look the same style object, whether or not the pins share an options object', () => {
    const red = Object.freeze({ markerColor: '#ff0000' });
    const styles = sharedStyles([pin('a', red), pin('b', red), pin('c', { markerColor: '#ff0000' }), pin('d', { markerColor: '#00ff00' })]);
    expect(styles.get('a')).toBe(styles.get('b'));
    expect(styles.get('c')).toBe(styles.get('a'));
    expect(styles.get('d')).not.toBe(styles.get('a'));
    expect(styles.get('a')?.markerColor).toBe('#ff0000');
    expect(new Set([...styles.values()].map(pinStyleKey)).size).toBe(2);
  });
});
