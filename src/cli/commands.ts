// The registry of CLI commands. Each command lives in its own file under src/cli/ and is listed here once.
import type { CliCommand } from './command';
import { approveCommand } from './approve';
import { exportCommand } from './export';
import { labelCommand } from './label';
import { logCommand } from './log';
import { rejectCommand } from './reject';
import { scoreCommand } from './score';
import { statsCommand } from './stats';
import { statusCommand } from './status';
import { submitCommand } from './submit';
import { undoCommand } from './undo';
import { importCommand } from './import';
import { listCommand } from './list';
import { showCommand } from './show';
import { validateCommand } from './validate';
import { verifyCommand } from './verify';
import { probeCommand } from './probe';
import { plantCommand } from './plant';
import { repairCommand } from './repair';
import { trajectoryCommand } from './trajectory';
import { specsCommand } from './specs';
import { reviewCommand } from './review';
import { solveCommand } from './solve';
import { searchCommand } from './search';

export const commands: CliCommand[] = [
  importCommand,
  validateCommand,
  listCommand,
  showCommand,
  verifyCommand,
  probeCommand,
  plantCommand,
  labelCommand,
  scoreCommand,
  submitCommand,
  statusCommand,
  approveCommand,
  rejectCommand,
  undoCommand,
  statsCommand,
  logCommand,
  exportCommand,
  repairCommand,
  trajectoryCommand,
  searchCommand,
  specsCommand,
  reviewCommand,
  solveCommand,
];
