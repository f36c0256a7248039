// Entry point of the `specweave` command (dist/cli.js): runs the command line on this process.
import { endQuietlyOnClosedPipes } from './output';
import { runCli } from './run';

endQuietlyOnClosedPipes();
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
