// The registry of CLI commands. Each command lives in its own file under src/cli/ and is listed here once.
import type { CliCommand } from './command';
import { importCommand } from './import';
import { listCommand } from './list';
import { verifyCommand } from './verify';

export const commands: CliCommand[] = [
  importCommand,
  listCommand,
  verifyCommand,
];
