// Types of noCycle.mjs for the TypeScript tests that load it.
import type { ESLint, Rule } from 'eslint';

export declare const noCycle: Rule.RuleModule;
export declare const localPlugin: ESLint.Plugin;
