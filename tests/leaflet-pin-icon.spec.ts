import { expect, test } from './test.ts';

/**
 * The pin as a Leaflet icon, in real Leaflet: loaded through the development server (which
 * serves the source modules), on a plain Leaflet map with no tiles. Its tip must sit on the
 * marker's point, and `setStyle` must restyle the same element in place.
 */
test('the Leaflet pin icon puts its tip on the point and restyles in place with setStyle', async ({ mapPage: page }) => {
  await page.goto('/');
  const result = await page.evaluate(async () => {
    const L = (await import('/node_modules/leaflet/dist/leaflet-src.esm.js' as string)) as typeof import('leaflet');
    await import('/node_modules/leaflet/dist/leaflet.css' as string);
    const { PinIcon } = (await import('/src/map/hybrid/leaflet-pin-icon.ts' as string)) as typeof import('../src/map/hybrid/leaflet-pin-icon.ts');
    document.body.innerHTML = '<div id="leaflet-map" style="position:absolute;left:0;top:0;width:600px;height:400px"></div>';
    const map = L.map('leaflet-map', { center: [10, 20], zoom: 4, zoomAnimation: false, fadeAnimation: false });
    const icon = new PinIcon({ iconClasses: 'fa-solid fa-star', markerColor: '#d7263d' });
    const marker = L.marker([10, 20], { icon }).addTo(map);
    const element = marker.getElement()!;
    const point = map.latLngToContainerPoint([10, 20]);
    const tipOf = () => {
      const box = element.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.bottom, width: box.width, height: box.height };
    };
    const before = { ...tipOf(), fill: element.querySelector('path')!.getAttribute('fill') };
    icon.setStyle({ scale: 2, markerColor: '#2E7D32', label: '7' });
    const after = { ...tipOf(), fill: element.querySelector('path')!.getAttribute('fill'), label: element.textContent, same: marker.getElement() === element };
    return { point: { x: point.x, y: point.y }, before, after };
  });
  expect(Math.abs(result.before.x - result.point.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(result.before.y - result.point.y)).toBeLessThanOrEqual(1);
  expect(result.before).toMatchObject({ width: 32, height: 52, fill: '#d7263d' });
  expect(result.after).toMatchObject({ width: 64, height: 104, fill: '#2E7D32', label: '7', same: true });
  expect(Math.abs(result.after.x - result.point.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(result.after.y - result.point.y)).toBeLessThanOrEqual(1);
});
