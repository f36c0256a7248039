// Steps grouped into turns, as the SWE-agent and mini-swe-agent inspectors show them: one assistant turn is its
// thought, its action or tool calls, and the observations or tool results that answer them.
import type { StepKindView } from '../../protocol/messages';

const ASSISTANT: ReadonlySet<StepKindView> = new Set(['thought', 'action', 'tool_call']);
const ANSWER: ReadonlySet<StepKindView> = new Set(['observation', 'tool_result']);

/**
 * The turn of each step, numbered from 1, or undefined for a step that stands alone (system, user, submission, and an
 * observation nothing asked for). An assistant step opens a new turn after an answer or a step that stands alone;
 * otherwise it joins the open turn (a thought and its action are one turn); answers join the turn they follow.
 */
export function turnsOf(kinds: readonly StepKindView[]): Array<number | undefined> {
  const out: Array<number | undefined> = [];
  let turn = 0;
  let open = false;
  let answered = false;
  for (const kind of kinds) {
    if (ASSISTANT.has(kind)) {
      if (!open || answered) {
        turn++;
        open = true;
        answered = false;
      }
      out.push(turn);
    } else if (ANSWER.has(kind) && open) {
      answered = true;
      out.push(turn);
    } else {
      open = false;
      out.push(undefined);
    }
  }
  return out;
}
