// @ts-check
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const folders = (dir) => readdirSync(new URL(dir, import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/**
 * Boundaries: a service never imports another service's code (they talk through events and HTTP), and a web feature
 * never imports another feature (routes compose them). Each folder gets a no-restricted-imports rule naming its
 * neighbours, by package name and by relative path.
 */
function boundaries(root, names, packages) {
  return names.map((name) => {
    const others = names.filter((other) => other !== name);
    return {
      files: [`${root}/${name}/**/*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': ['error', {
          patterns: [{
            regex: `^(${packages ? `@puente/(${others.join('|')})(/|$)|` : ''}(\\.\\./)+(${others.join('|')})/)`,
            message: packages
              ? 'A service must not import another service\'s code: use its events or its HTTP API (tests: infra/).'
              : 'A web feature must not import another feature: move what they share to components/, lib/ or utils/, or compose them in app/.',
          }],
        }],
      },
    };
  });
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', '**/migrations/**', 'web/dist/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Type-aware: a promise nobody awaits or handles hides its failure. JSX handlers (a form's onSubmit given
    // react-hook-form's handleSubmit) may return one: React ignores it, and the handler reports its own errors.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  ...boundaries('services', folders('./services'), true),
  ...boundaries('web/src/features', folders('./web/src/features'), false),
  {
    // Command-line scripts talk to their user on the terminal.
    files: ['infra/scripts/**', '**/*.test.ts', '**/bench/**'],
    rules: { 'no-console': 'off' },
  },
);
