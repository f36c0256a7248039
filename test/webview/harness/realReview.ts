// The review side of the harness host built from the real thing (`?review=real`): the extension's ReviewActions over
// a real CurationStore on a fresh copy of test/fixtures/review/ds (task t1, attempts a1 and a2, with its verifier
// runs), as src/vscode/curation/curationController.ts wires them. The page's fake host hands each review request to
// this Node side through a Playwright binding and gets back the reply and the task's review part after it, so every
// answer is what the extension would answer: checked against the log on disk, appended, fsynced. Node code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogFs } from '../../../src/adapters/fs/reviewLog';
import { CurationStore } from '../../../src/app/curationStore';
import type { RequestMap, ReviewView } from '../../../src/protocol/messages';
import { ReviewActions } from '../../../src/vscode/curation/reviewActions';
import { reviewDataset, writeT1Runs } from '../../unit/review/helpers';

export const REAL_TASK = 't1';
export const REAL_VIEWER = 'alice';

type ReviewMethod = 'label' | 'score' | 'submit' | 'transition' | 'approve' | 'reject' | 'undo' | 'decideSuggestion' | 'openEvidence' | 'reviewQueue';
const METHODS: readonly string[] = ['label', 'score', 'submit', 'transition', 'approve', 'reject', 'undo', 'decideSuggestion', 'openEvidence', 'reviewQueue'];

export interface RealReviewAnswer {
  /** Not a review method: the fake host answers it itself. */
  handled: boolean;
  result?: unknown;
  /** The task's review part after the request (the host pushes it as an `update` before the reply). */
  review?: ReviewView;
  /** Whether anything changed on disk (then the update is sent). */
  changed?: boolean;
}

export class RealReviewHost {
  readonly root: string;
  readonly store: CurationStore;
  readonly actions: ReviewActions;
  /** The next append fails as a full disk would (ENOSPC): nothing is recorded. */
  diskFull = false;
  private changedTasks = 0;

  constructor() {
    this.root = reviewDataset();
    writeT1Runs(this.root);
    const logFs: LogFs = {
      ...fs,
      writeSync: ((...args: Parameters<typeof fs.writeSync>) => {
        if (this.diskFull) {
          this.diskFull = false;
          const e = new Error('ENOSPC: no space left on device, write') as NodeJS.ErrnoException;
          e.code = 'ENOSPC';
          throw e;
        }
        return (fs.writeSync as (...a: unknown[]) => number)(...args);
      }) as typeof fs.writeSync,
    };
    this.store = CurationStore.open(this.root, { log: { fs: logFs } });
    this.actions = new ReviewActions({
      store: () => this.store,
      curator: () => ({ ok: true, name: REAL_VIEWER, source: 'setting' }),
      blind: () => false,
      changed: () => void this.changedTasks++,
      showTask: () => undefined,
      openEvidence: async (_task, link) => ({ opened: true, message: `Opened ${link.kind}.` }),
    });
  }

  view(): ReviewView | undefined {
    return this.actions.view(REAL_TASK);
  }

  async handle(method: string, params: unknown): Promise<RealReviewAnswer> {
    if (method === 'view') return { handled: true, review: this.view() };
    if (!METHODS.includes(method)) return { handled: false };
    const before = this.changedTasks;
    const handler = this.actions.requests(REAL_TASK)[method as ReviewMethod] as (p: RequestMap[ReviewMethod]['params']) => Promise<unknown>;
    const result = await handler(params as RequestMap[ReviewMethod]['params']);
    const changed = this.changedTasks !== before;
    return { handled: true, result, changed, ...(changed ? { review: this.view() } : {}) };
  }

  /** The events on disk, in order. */
  events(): Array<Record<string, unknown>> {
    const f = path.join(this.root, 'curation/events.jsonl');
    if (!fs.existsSync(f)) return [];
    return fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
