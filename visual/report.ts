import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const OUTPUT_DIR = 'visual/output';
const RESULTS_DIR = join(OUTPUT_DIR, 'results');

/** One scene's outcome, written by the test as JSON and gathered into the HTML report. */
export interface SceneResult {
  scene: string;
  description: string;
  status: 'passed' | 'failed' | 'updated';
  message: string;
  diffPixels?: number;
  allowedPixels?: number;
  baseline?: string;
  actual?: string;
  diff?: string;
  chromium: string;
}

export function recordResult(result: SceneResult): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${result.scene}.json`), JSON.stringify(result, null, 2));
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Writes visual/output/report.html: failed scenes first, each as expected | actual | diff side
 * by side, with a toggle that flips expected and actual in place; then the list of all scenes.
 * Returns its path, or undefined when no scene ran.
 */
export function writeReport(): string | undefined {
  if (!existsSync(RESULTS_DIR)) return undefined;
  const results: SceneResult[] = readdirSync(RESULTS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(RESULTS_DIR, f), 'utf8')) as SceneResult);
  if (results.length === 0) return undefined;
  const failed = results.filter((r) => r.status === 'failed');
  const img = (path: string | undefined, label: string) =>
    path ? `<figure><figcaption>${label}</figcaption><img src="${escape(relative(OUTPUT_DIR, path))}" alt="${label}"></figure>` : '';
  const cards = failed
    .map(
      (r) => `<section class="card">
  <h2>${escape(r.scene)}</h2>
  <p>${escape(r.description)}</p>
  <p class="msg">${escape(r.message)}</p>
  <div class="row">${img(r.baseline, 'expected')}${img(r.actual, 'actual')}${img(r.diff, 'diff')}</div>
  ${r.baseline && r.actual ? `<div class="flip"><button type="button">Toggle expected / actual</button><img src="${escape(relative(OUTPUT_DIR, r.baseline))}" data-a="${escape(relative(OUTPUT_DIR, r.baseline))}" data-b="${escape(relative(OUTPUT_DIR, r.actual))}" alt="toggle"><span>expected</span></div>` : ''}
</section>`,
    )
    .join('\n');
  const rows = results
    .map((r) => `<tr class="${r.status}"><td>${escape(r.scene)}</td><td>${r.status}</td><td>${r.diffPixels ?? ''}</td><td>${r.allowedPixels ?? ''}</td><td>${escape(r.message)}</td></tr>`)
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pinmap visual report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1d2733}
.card{border:1px solid #ccd;border-radius:6px;padding:1rem;margin:0 0 1.5rem}
.row{display:flex;gap:1rem}.row figure{flex:1 1 0;min-width:0;margin:0}figcaption{font-weight:600}
img{max-width:100%;border:1px solid #ddd;image-rendering:pixelated}
.msg{color:#a02020}.flip{margin-top:1rem}.flip span{margin-left:.5rem;font-weight:600}
table{border-collapse:collapse}td,th{border:1px solid #ccd;padding:.25rem .5rem;text-align:left}
tr.failed td{background:#fde8e8}tr.updated td{background:#e8f0fd}
</style></head><body>
<h1>Pinmap visual report</h1>
<p>${failed.length} of ${results.length} scenes failed. Chromium ${escape(results[0]?.chromium ?? 'unknown')}.</p>
${failed.length ? `<h2>Failed: ${failed.map((r) => escape(r.scene)).join(', ')}</h2>` : ''}
${cards}
<h2>All scenes</h2>
<table><tr><th>scene</th><th>status</th><th>differing px</th><th>allowed px</th><th>message</th></tr>
${rows}
</table>
<script>
for (const box of document.querySelectorAll('.flip')) {
  const img = box.querySelector('img'); const label = box.querySelector('span');
  box.querySelector('button').addEventListener('click', () => {
    const showA = img.getAttribute('src') !== img.dataset.a;
    img.setAttribute('src', showA ? img.dataset.a : img.dataset.b);
    label.textContent = showA ? 'expected' : 'actual';
  });
}
</script>
</body></html>
`;
  const path = join(OUTPUT_DIR, 'report.html');
  writeFileSync(path, html);
  return path;
}
