// Entry point of the `specweave` command (dist/cli.js): runs the command line on this process.
import { sweepAtStartup } from '../adapters/docker/sweep';
import { endQuietlyOnClosedPipes } from './output';
import { runCli } from './run';

endQuietlyOnClosedPipes();
// Containers a killed earlier process left are removed at every start, whatever the command: cheap (a local socket
// that answers within 300 ms, else nothing) and before the command, whose synchronous work would otherwise starve
// the short first contact.
void sweepAtStartup()
  .then(() => runCli(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  });
