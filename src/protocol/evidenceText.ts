// How an evidence link reads in a sentence: the same words in the task page, the citations in the editor and the
// output. Pure, for both sides of the protocol.
import type { EvidenceLinkView } from './messages';

export function evidenceText(l: EvidenceLinkView): string {
  switch (l.kind) {
    case 'trajectory_step':
      return `step ${l.step} of ${l.attempt}`;
    case 'test':
      return `test ${l.test}`;
    case 'log_line':
      return `line ${l.line} of run ${l.run}${l.stream === 'stderr' ? ' (stderr)' : ''}`;
    case 'diff_hunk':
      return `hunk ${l.hunk} of ${l.file} (${l.patch === 'attempt' ? (l.attempt ?? 'attempt') : l.patch})`;
    case 'spec':
      return `spec ${l.spec}`;
    case 'finding':
      return `review agent's finding on ${l.spec}`;
  }
}
