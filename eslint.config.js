// ESLint flat config. Type-aware rules (typescript-eslint's projectService reads tsconfig.json)
// catch what matters on the model-call path: un-awaited promises, promises where a callback's
// result is ignored, `any` leaking through. Layout belongs to Prettier (.prettierrc.json).
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['node_modules/', 'dist/', 'reports/', 'coverage/', '.tmp/'] },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        // vitest.config.ts and this file sit outside tsconfig.json's include.
        projectService: { allowDefaultProject: ['vitest.config.ts', 'eslint.config.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // ADK's callbacks, BaseLlm and Summarizer are promise-returning by contract; an `async`
      // implementation with nothing to await is the plain way to meet it (a sync throw would not
      // become a rejection).
      '@typescript-eslint/require-await': 'off',
      // `_name` marks a deliberately unused parameter; `{ id: _id, ...rest }` drops a field.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Vitest types its asymmetric matchers (expect.stringMatching, expect.any, …) as `any`.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  prettier,
);
