// What the CLI's container commands (`verify`, `probe`) share: the engine checked before anything runs, and Ctrl-C
// cancelling the queue (its running containers are removed) instead of killing the process with them left behind.
import { EngineUnavailableError } from '../adapters/docker/engine';
import type { VerifierService } from '../adapters/docker/verifyService';
import { err, one } from './output';

/** True when the service's engine answers; else prints why (naming `command`) and returns false. */
export async function engineAnswers(service: VerifierService, command: string): Promise<boolean> {
  try {
    await service.checkEngine();
    return true;
  } catch (e) {
    if (e instanceof EngineUnavailableError) {
      err(`specweave ${command}: ${one(e.message)}\n`);
      return false;
    }
    throw e;
  }
}

/** Until `dispose`, the first SIGINT cancels every job of the service's queue; `interrupted` says whether it came. */
export function cancelOnSigint(service: VerifierService): { readonly interrupted: boolean; dispose(): void } {
  let interrupted = false;
  const onSigint = (): void => {
    interrupted = true;
    err('\ncancelling: removing running containers...\n');
    service.queue.cancelAll();
  };
  process.once('SIGINT', onSigint);
  return {
    get interrupted() {
      return interrupted;
    },
    dispose: () => void process.removeListener('SIGINT', onSigint),
  };
}
