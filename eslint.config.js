// Type-aware lint for src, test, bench and scripts. Formatting is Prettier's job (.prettierrc.json), so no
// style rules here; see docs/decisions/015-tools-tiers-lint-coverage.md for why each rule is on or off.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/out/**', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's describe/test return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Services are factories returning object literals whose functions never use `this`; passing them on
      // (`start: recorder.start`) is how the code composes them.
      '@typescript-eslint/unbound-method': 'off',
      // Its fixes removed assertions that narrow literal unions inside object literals (the code then
      // stopped compiling); the safe removals were applied once (`eslint --fix`) after the issue-9 merge.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The schema primitives have one definition, in src/features/kit/schema-kit.ts (issue 25).
    files: ['src/**/*.ts'],
    ignores: ['src/features/kit/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'VariableDeclarator[id.name=/^(Nullable|nullable|Limit|Cursor|NextCursor)$/]',
          message: 'Import Nullable, Limit, Cursor and NextCursor from src/features/kit/schema-kit.ts instead of declaring them again.',
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.js', '*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
