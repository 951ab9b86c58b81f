import { defineConfig } from 'vitest/config';

/** Unit tests: pure code in Node (machines with a simulated clock, config, address, comparator, generators). */
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'visual/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // The files of a worker run in one process, not one process each: about half the CPU of the
    // unit run. Each file still imports the modules afresh (vitest.setup.ts), and what a test stubs
    // or spies on is undone after it, so no file sees another's state.
    isolate: false,
    setupFiles: ['./vitest.setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
