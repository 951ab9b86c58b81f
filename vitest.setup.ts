import { vi } from 'vitest';

// Each test file imports the product's modules afresh (their module-level state: caches, watchers),
// while the worker, and what it has already transformed, is kept from file to file.
vi.resetModules();
