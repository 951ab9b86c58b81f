import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli.ts';

const folder = mkdtempSync(join(tmpdir(), 'pinmap-cli-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the command; resolves with its exit code and what it printed. */
async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, (line) => out.push(line), (line) => err.push(line));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('pinmap-tile-pins', () => {
  it('tiles a file, reports skipped features with index and reason, and writes all of them with --skipped', async () => {
    const input = join(folder, 'pins.geojson');
    writeFileSync(
      input,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', id: 'ok', geometry: { type: 'Point', coordinates: [2, 48] }, properties: { title: 'Ok' } },
          { type: 'Feature', id: 'far', geometry: { type: 'Point', coordinates: [2, 95] }, properties: { title: 'Far' } },
          { type: 'Feature', geometry: { type: 'Point', coordinates: [2, 45] }, properties: { title: 'No id' } },
        ],
      }),
    );
    const skipped = join(folder, 'skipped.jsonl');
    const result = await run([input, '-o', join(folder, 'pins.pmtiles'), '--skipped', skipped, '--quiet']);
    expect(result.code).toBe(0);
    expect(result.err).toContain('2 features were skipped:');
    expect(result.err).toContain('feature 1 ("far"): latitude 95 is outside -90..90');
    expect(result.err).toContain('feature 2: has no id');
    expect(readFileSync(skipped, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { index: number }).index)).toEqual([1, 2]);
    expect(readFileSync(join(folder, 'pins.pmtiles')).subarray(0, 7).toString()).toBe('PMTiles');
  });

  it('tiles a CSV file whose columns a config names, reporting a bad row by its line', async () => {
    const input = join(folder, 'places.csv');
    writeFileSync(input, 'Ort;Breite;Länge\nBern;46,95;7,45\nNirgends;95;7\n');
    const config = join(folder, 'config.json');
    writeFileSync(config, JSON.stringify({ csv: { title: 'Ort', lat: 'Breite', lng: 'Länge' } }));
    const result = await run([input, '-o', join(folder, 'places.pmtiles'), '--config', config, '--quiet']);
    expect(result.code).toBe(0);
    expect(result.err).toContain('1 feature was skipped:');
    expect(result.err).toContain('line 3 ("Nirgends"): latitude 95 is outside -90..90');
  });

  it('reports a broken quote of a CSV file by the line it opened on, reads again the rows it ran on into, and prints no line longer than a few hundred characters', async () => {
    const input = join(folder, 'quotes.csv');
    const long = 'Ω'.repeat(200_000);
    writeFileSync(input, `id,title,lat,lng\na,Alpha,1,1\nb,"${long},2,2\nc,"Gamma",3,3\nd,"Delta"?,4,4\ne,Epsilon,5,5\nf,"Phi",6,6\n`);
    const result = await run([input, '-o', join(folder, 'quotes.pmtiles')]);
    expect(result.code).toBe(0);
    expect(result.out).toContain('quotes.pmtiles: 4 pins of 6 features');
    expect(result.err.split('\n')).toEqual([
      '2 features were skipped:',
      `  line 3 ("${'Ω'.repeat(80)}…"): a quote opened in the "title" column is never closed; lines 3–4 were read as one row, so line 4 is read again on its own`,
      '  line 5 ("Delta"): the "title" column has text after its closing quote ("?"); lines 5–7 were read as one row, so lines 6–7 are read again on their own',
    ]);
  });

  it('exits with 1 and names the file and the problem when the input is not a FeatureCollection, not JSON or missing, or the output has no folder; with 2 for a usage mistake', async () => {
    const input = join(folder, 'feature.geojson');
    writeFileSync(input, JSON.stringify({ type: 'Feature', geometry: null, properties: {} }));
    const bad = await run([input, '-o', join(folder, 'bad.pmtiles')]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`pinmap-tile-pins: ${input}: pins must be a GeoJSON FeatureCollection (got type "Feature")`);
    const notJson = join(folder, 'not.geojson');
    writeFileSync(notJson, '{"type": "FeatureCollection", "features": [}');
    const broken = await run([notJson, '-o', join(folder, 'broken.pmtiles')]);
    expect(broken.code).toBe(1);
    expect(broken.err).toBe(`pinmap-tile-pins: ${notJson}: the file is not JSON: expected feature 0 at byte 43, found "}"`);
    const missing = await run([join(folder, 'nowhere.geojson'), '-o', join(folder, 'nowhere.pmtiles')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`pinmap-tile-pins: ${join(folder, 'nowhere.geojson')}: ENOENT: no such file or directory`);
    const noFolder = await run([input, '-o', join(folder, 'no-such-folder', 'pins.pmtiles')]);
    expect(noFolder.code).toBe(1);
    expect(noFolder.err).toBe(`pinmap-tile-pins: ${join(folder, 'no-such-folder', 'pins.pmtiles')}: the folder ${join(folder, 'no-such-folder')} does not exist`);
    expect((await run([input])).code).toBe(2);
    expect((await run([input, '-o', 'x.pmtiles', '--bogus'])).code).toBe(2);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: pinmap-tile-pins <pins.geojson | pins.csv | -> -o <pins.pmtiles>');
  });
});
