// Entry point of the `specweave` command: parses the command name and dispatches to one module per command.
import { sweepAtStartup } from '../adapters/docker/sweep';
import { commands } from './commands';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  if (name === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`specweave: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  // Containers a killed earlier process left are removed at every start, whatever the command: cheap (a local
  // socket that answers within 300 ms, else nothing) and before the command, whose synchronous work would otherwise
  // starve the short first contact.
  await sweepAtStartup();
  return command.run(rest);
}

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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`specweave: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 3;
  },
);
