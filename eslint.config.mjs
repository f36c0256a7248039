// Lint rules, including the import boundaries of the house style (see docs/architecture.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { localPlugin } from './eslint-rules/noCycle.mjs';

const nodeIo = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'child_process', 'node:child_process', 'net',
  'node:net', 'http', 'node:http', 'https', 'node:https', 'worker_threads', 'node:worker_threads'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist-pkg/**', 'out/**', '.tools/**', '.test-output/**', 'examples/repos/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': ['error',
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (house style).' },
        { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'Use node:crypto or a counter for ids and nonces.' }],
    },
  },
  // Zero import cycles (eslint-rules/noCycle.mjs), in the host and in the webview.
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    plugins: { local: localPlugin },
    rules: { 'local/no-cycle': 'error' },
  },
  // A promise nobody awaits loses its rejection: await it, or `void` it with a comment saying who handles its errors.
  // Type-aware (the project service reads the tsconfig.json nearest each file: the host's, or webview/'s).
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  { files: ['**/*.js', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Tool configuration files must default-export their configuration.
  { files: ['*.config.mjs', '*.config.js'], rules: { 'no-restricted-syntax': 'off' } },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/view/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeIo, 'vscode', 'dockerode', 'openai'].map((name) => ({ name, message: 'src/core is pure: no vscode, I/O, Docker or network.' })),
        patterns: [
          { group: ['**/adapters/**', '**/app/**', '**/vscode/**', '**/cli/**', '**/webview/**'], message: 'src/core imports nothing from adapters, app, vscode, cli or webview.' },
          { group: ['./view/*', '../view/*', '**/core/view/**'], message: 'src/core/view is a leaf: it builds view models from core, and core never imports it.' },
        ],
      }],
    },
  },
  {
    files: ['src/core/view/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeIo, 'vscode', 'dockerode', 'openai'].map((name) => ({ name, message: 'src/core is pure: no vscode, I/O, Docker or network.' })),
        patterns: [{ group: ['**/adapters/**', '**/app/**', '**/vscode/**', '**/cli/**', '**/webview/**'], message: 'src/core imports nothing from adapters, app, vscode, cli or webview.' }],
      }],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(?!\\./[^/]+$)', message: 'src/protocol imports nothing (only its own files).' }],
      }],
    },
  },
  {
    files: ['src/app/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'Only src/vscode/ imports vscode.' }],
        patterns: [{ group: ['**/vscode/**', '**/webview/**'], message: 'Only src/vscode/ is the VS Code layer.' }],
      }],
    },
  },
  // Adapters do one kind of I/O each; the workflows that combine them live in src/app, which adapters never import.
  {
    files: ['src/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'Only src/vscode/ imports vscode.' }],
        patterns: [
          { group: ['**/vscode/**', '**/webview/**'], message: 'Only src/vscode/ is the VS Code layer.' },
          { group: ['**/app/**', '**/cli/**'], message: 'Adapters never import the application layer (src/app) or the CLI.' },
        ],
      }],
    },
  },
  // The CLI prints only through src/cli/output.ts: one place escapes untrusted text, masks the key, survives a closed
  // stdout. (The base selectors are repeated: a later no-restricted-syntax replaces the earlier one.)
  {
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/output.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (house style).' },
        { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'Use node:crypto or a counter for ids and nonces.' },
        { selector: "MemberExpression[object.object.name='process'][object.property.name=/^(stdout|stderr)$/][property.name=/^(write|end)$/]", message: 'Print through out() / err() of src/cli/output.ts.' },
        { selector: "MemberExpression[object.name='console']", message: 'Print through out() / err() of src/cli/output.ts.' }],
    },
  },
  // A quick input that is a step of a command says whether it survives focus moving away: a task view taking focus
  // as it finishes loading closed picks under curators (and under the e2e tests on busy machines).
  {
    files: ['src/vscode/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (house style).' },
        { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'Use node:crypto or a counter for ids and nonces.' },
        { selector: "CallExpression[callee.property.name=/^show(QuickPick|InputBox)$/]:not(:has(Property[key.name='ignoreFocusOut']))", message: 'Say ignoreFocusOut (true for a step of a command: a task view taking focus would close it).' }],
    },
  },
  {
    files: ['webview/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeIo, 'vscode'].map((name) => ({ name, message: 'webview/ runs in a browser and imports only src/protocol.' })),
        patterns: [{ group: ['../../src/*', '!../../src/protocol', '../../src/*/**', '!../../src/protocol/**', '**/core/**', '**/adapters/**', '**/vscode/**', '**/cli/**'], message: 'webview/ imports only src/protocol.' }],
      }],
    },
  },
);
