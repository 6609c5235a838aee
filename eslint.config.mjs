// Lint with type information (docs/decisions.md, "Lint and format"): the rules that catch
// defects the compiler lets through. Formatting is Biome's (biome.json); import layers are
// dependency-cruiser's (.dependency-cruiser.cjs).
import tseslint from 'typescript-eslint';

const SERVICE = ['shared/**/*.ts', 'functions/**/*.ts'];

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits fails silently, or after the Lambda has answered.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-unused-expressions': 'error',
      // A switch over a union handles every member, or says what the rest do.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    // `any` from the SDK or JSON must not flow into the service, or the client it ships, unchecked.
    // (Tests read JSON bodies as `any` on purpose: their assertions check the shape.)
    files: [...SERVICE, 'clients/typescript/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
    },
  },
  {
    files: SERVICE,
    ignores: ['shared/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through env in shared/config.ts.' }],
    },
  },
  {
    // Keys are built, and items recognised, only by the data module that owns them.
    files: SERVICE,
    ignores: ['shared/data/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Property > Identifier.key[name=/^(PK|SK|GSI\\d?(PK|SK))$/]', message: 'Table keys belong to shared/data.' },
        { selector: 'MemberExpression > Identifier.property[name=/^(PK|SK|GSI\\d?(PK|SK))$/]', message: 'Table keys belong to shared/data.' },
        { selector: 'Literal[value=/^(PK|SK)$/]', message: 'Table keys belong to shared/data.' },
      ],
    },
  },
);
