// The `specweave` command as a function: parses the command name and dispatches to one module per command. main.ts
// runs it on the process; tests run it in-process with the output captured (output.ts, setOutput).
import { commands } from './commands';
import { err, maskInOutput, out } from './output';

declare const VERSION_INJECTED: string | undefined;
const VERSION = typeof VERSION_INJECTED === 'string' ? VERSION_INJECTED : '0.1.0';

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: specweave <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `specweave <command> --help` for the options of one command. See docs/cli.md.',
    '',
  ].join('\n');
}

/** Runs one command line; resolves to the exit code (3 for an unexpected error, printed on stderr). */
export async function runCli(argv: string[]): Promise<number> {
  // The key the repair agent uses never reaches stdout or stderr, from any command or any stored file shown.
  maskInOutput(process.env.OPENAI_API_KEY);
  try {
    const [name, ...rest] = argv;
    if (!name || name === '--help' || name === '-h' || name === 'help') {
      out(usage());
      return name ? 0 : 2;
    }
    if (name === '--version') {
      out(`${VERSION}\n`);
      return 0;
    }
    const command = commands.find((c) => c.name === name);
    if (!command) {
      err(`specweave: unknown command "${name}"\n\n${usage()}`);
      return 2;
    }
    return await command.run(rest);
  } catch (e) {
    err(`specweave: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 3;
  }
}
