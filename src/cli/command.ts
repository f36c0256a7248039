// The shape of one CLI command.

export interface CliCommand {
  name: string;
  summary: string;
  /** Runs the command with its arguments; resolves to the process exit code. */
  run(args: string[]): Promise<number>;
}
