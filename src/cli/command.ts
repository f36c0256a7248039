// The shape of one CLI command, and a helper that handles --help and usage errors the same way everywhere.
import { NotADatasetError } from '../adapters/fs/datasetLoader';
import { UsageError, helpText, parseArgs } from './args';
import type { FlagSpec, ParsedArgs } from './args';
import { err, one, out } from './output';

export interface CliCommand {
  name: string;
  summary: string;
  /** Runs the command with its arguments; resolves to the process exit code. */
  run(args: string[]): Promise<number>;
}

export interface CommandDefinition {
  name: string;
  summary: string;
  usage: string;
  flags: Record<string, FlagSpec>;
  /** Allowed number of positional arguments. */
  positional: { min: number; max: number };
  run(args: ParsedArgs): Promise<number>;
}

/** Builds a CliCommand that prints help on `--help` and exits 2 with the usage on a usage error. */
export function defineCommand(def: CommandDefinition): CliCommand {
  const flags: Record<string, FlagSpec> = { ...def.flags, help: { type: 'boolean', help: 'show this help' } };
  const help = () => `${def.summary}\n\n${helpText(def.usage, flags)}`;
  return {
    name: def.name,
    summary: def.summary,
    async run(argv) {
      let parsed: ParsedArgs;
      try {
        parsed = parseArgs(argv, flags);
        if (parsed.booleans.help) {
          out(help());
          return 0;
        }
        const n = parsed.positional.length;
        if (n < def.positional.min || n > def.positional.max) {
          throw new UsageError(n < def.positional.min ? 'missing arguments' : `unexpected argument "${parsed.positional[def.positional.max]}"`);
        }
        return await def.run(parsed);
      } catch (e) {
        if (e instanceof NotADatasetError) {
          err(`specweave ${def.name}: ${one(e.message)}\n`);
          return 2;
        }
        if (!(e instanceof UsageError)) throw e;
        err(`specweave ${def.name}: ${one(e.message)}\n\n${help()}`);
        return 2;
      }
    },
  };
}
