import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-output/**', 'packages/*/dist/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      // Node 20's URL.canParse wrongly refuses non-ASCII URLs after a few thousand calls: src/domain/url-parse.ts.
      'no-restricted-properties': [
        'error',
        { object: 'URL', property: 'canParse', message: 'Use canParseUrl (src/domain/url-parse.ts).' },
      ],
    },
  },
  {
    // The pages' one script runs in the browser.
    files: ['src/adapters/views/static/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'bin/**/*.js', 'packages/*/{test,bench,examples}/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
