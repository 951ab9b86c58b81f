import react from '@vitejs/plugin-react';
import { pinmap } from 'pinmap/vite';
import { defineConfig } from 'vite';

// A plain Vite + React app. `pinmap()` is the one line Pinmap asks for: it puts the embedded
// basemap beside the built app.
export default defineConfig({
  plugins: [react(), pinmap()],
});
