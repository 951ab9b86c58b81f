import { defineConfig } from 'vitest/config';

/** Unit tests: pure code in Node (machines with a simulated clock, config, address, comparator, generators). */
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'visual/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
