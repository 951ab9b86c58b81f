import { defineConfig } from 'vitest/config';

/** Unit tests: pure code in Node (machines with a simulated clock, config, address, comparator, generators). */
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'visual/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // The files of a worker share its modules (no fresh import of every module for each file):
    // half the CPU of the unit run. What a test stubs or spies on is undone after it, so no test
    // leaves a stubbed global or a silenced console to the files after it.
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
