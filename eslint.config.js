import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';

/** The map engines: only src/map may import them. */
const ENGINES = ['maplibre-gl', 'maplibre-gl/*', 'leaflet', '@maplibre/maplibre-gl-leaflet'];

/**
 * The rooms of src/ (CONTRIBUTING.md, "Layout") and what each may import. Each pattern names a
 * room by its path from any depth below src/, so the rule reads the same from every file.
 */
const room = (...names) => names.flatMap((name) => [`**/${name}`, `**/${name}/**`]);

export default tseslint.config(
  // tests/consumer is an app of its own, checked by its own tsconfig (tests/consumer.spec.ts).
  { ignores: ['dist', 'node_modules', 'fixtures', 'visual/output', 'test-results', 'playwright-report', 'tests/readme-examples', 'tests/consumer'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // React lives in src/ui and the app's entry only; the hooks' rules (most of the lint's time:
    // they compile each function they read) check those files.
    files: ['src/ui/**/*.{ts,tsx}', 'src/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      // Every import names its file (`./icon.ts`), so Node's own resolution finds it.
      'import-x/resolver': undefined,
      'import-x/resolver-next': [importX.createNodeResolver()],
    },
    rules: {
      // No import loops: each room's modules form a tree that can be read from the leaves up.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-duplicates': 'error',
    },
  },
  {
    files: ['src/machines/**/*.ts'],
    rules: {
      // Machines are pure: the engines and the UI are injected, never imported.
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', ...ENGINES, ...room('map', 'ui', 'pins', 'tiler')], message: 'Machines are pure: they import only src/config and each other.' }] }],
    },
  },
  {
    files: ['src/config/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', ...ENGINES, ...room('map', 'ui', 'tiler', 'machines', 'pins')], message: 'src/config is the bottom room: it imports no engine and no other room.' }] }],
    },
  },
  {
    files: ['src/pins/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', ...ENGINES, ...room('map', 'ui', 'tiler', 'machines')], message: 'src/pins is the engine-free pin domain, shared with the tiler: it imports src/config only.' }] }],
    },
  },
  {
    files: ['src/tiler/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', ...ENGINES, ...room('map', 'ui', 'machines', 'cli')], message: 'The tiler runs in Node: it imports src/pins and src/config only.' }] }],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', ...ENGINES, ...room('map', 'ui', 'machines')], message: 'The command line runs in Node: it imports src/tiler, src/pins and src/config only.' }] }],
    },
  },
  {
    files: ['src/map/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', ...room('ui', 'tiler', 'cli')], message: 'src/map is driven by src/ui through the MapAdapter contract; it never imports the UI, the tiler or the command line.' }] }],
    },
  },
  {
    files: ['src/map/vector/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', ...room('ui', 'tiler', 'hybrid'), 'leaflet', '@maplibre/maplibre-gl-leaflet'], message: 'The vector view is MapLibre alone: Leaflet and the hybrid view stay out of it.' }] }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      // Only src/map touches the map engines.
      'no-restricted-imports': ['error', { paths: ENGINES.filter((e) => !e.includes('*')), patterns: [{ group: ['maplibre-gl/*', ...room('tiler', 'cli')], message: 'Only src/map touches the map engines; the UI never imports the tiler or the command line.' }] }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
