import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  // tests/consumer is an app of its own, checked by its own tsconfig (tests/consumer.spec.ts).
  { ignores: ['dist', 'node_modules', 'fixtures', 'visual/output', 'test-results', 'playwright-report', 'tests/readme-examples', 'tests/consumer'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ['src/machines/**/*.ts'],
    rules: {
      // Machines are pure: the engines and the UI are injected, never imported.
      'no-restricted-imports': ['error', { patterns: ['react', 'react-dom', 'maplibre-gl', 'leaflet', '../map/*', '../ui/*'] }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      // Only src/map touches the map engines.
      'no-restricted-imports': ['error', { paths: ['maplibre-gl', 'leaflet', '@maplibre/maplibre-gl-leaflet'] }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
