import { existsSync, rmSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './chromium.ts';

/**
 * Fails fast, with a message that says what to do, when the browser suite cannot mean anything:
 * no production build to serve, or a Chromium without working software WebGL2.
 */
export default async function globalSetup(): Promise<void> {
  if (!existsSync('dist/index.html') || !existsSync('dist/lib/pinmap-embed.js')) {
    throw new Error('No production build in dist/: run `npm run build` before the browser tests (`npm test` does both).');
  }
  rmSync('visual/output', { recursive: true, force: true });
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const renderer = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      if (!gl) return null;
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      return String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    });
    if (!renderer) throw new Error('This Chromium gives no WebGL2 context, so no map can render. Check the SwiftShader flags in tests/chromium.ts.');
    if (!/swiftshader/i.test(renderer)) {
      console.warn(`WebGL renderer is "${renderer}", not SwiftShader: screenshots may differ from the baselines.`);
    }
    process.env.PINMAP_WEBGL_RENDERER = renderer;
    process.env.PINMAP_CHROMIUM_VERSION = browser.version();
  } finally {
    await browser.close();
  }
}
