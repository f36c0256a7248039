// What the workbench shows of the verifier queue: one row per run with where it runs (backend and node), and the
// runs counted per node for the status bar. Pure: the service gives the queue's jobs and their placements.
import type { JobState, QueueProgress } from './queue';

export interface QueueRunRow {
  id: string;
  taskId: string;
  attemptId: string;
  state: JobState;
  /** `local`, `pool`, ... */
  backend: string;
  /** Where the run was given: `node2 unix:///...` for a pool member, the engine's name for `local`; '' while queued. */
  node: string;
}

export interface NodeCount {
  /** The node's short name (`node2`, or the local engine's name). */
  name: string;
  /** The rest of its placement (the pool member's address), '' when none. */
  address: string;
  running: number;
  /** Finished there: done or failed (a cancelled run counts where it ran, as finished). */
  finished: number;
}

const ORDER: Record<JobState, number> = { running: 0, queued: 1, failed: 2, done: 3, cancelled: 4 };

/** Running first, then queued, then what settled (errors before successes); queue order within each. */
export function sortQueueRows(rows: readonly QueueRunRow[]): QueueRunRow[] {
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => ORDER[a.r.state] - ORDER[b.r.state] || a.i - b.i)
    .map((x) => x.r);
}

function splitNode(node: string): { name: string; address: string } {
  const i = node.indexOf(' ');
  return i < 0 ? { name: node, address: '' } : { name: node.slice(0, i), address: node.slice(i + 1) };
}

/** The runs per node, in the order nodes were first used; runs not yet placed are not counted. */
export function nodeCounts(rows: readonly QueueRunRow[]): NodeCount[] {
  const out = new Map<string, NodeCount>();
  for (const r of rows) {
    if (!r.node) continue;
    const { name, address } = splitNode(r.node);
    let c = out.get(name);
    if (!c) {
      c = { name, address, running: 0, finished: 0 };
      out.set(name, c);
    }
    if (r.state === 'running') c.running++;
    else if (r.state !== 'queued') c.finished++;
  }
  return [...out.values()];
}

const STATE_TEXT: Record<JobState, string> = { running: 'running', queued: 'queued', done: 'done', failed: 'error', cancelled: 'cancelled' };

/** A run's line in the queue view: `TASK ATTEMPT` and `running · pool · node2 unix:///...`. */
export function queueRowText(r: QueueRunRow): { label: string; description: string } {
  const where = r.node ? `${r.backend} · ${r.node}` : r.backend;
  return { label: `${r.taskId} ${r.attemptId}`, description: `${STATE_TEXT[r.state]} · ${where}` };
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/**
 * The item's text and tooltip for a queue state. `nodes`: the runs per node, shown when the runs went to more than
 * one node or to a backend other than the local engine (`perNode`).
 */
export function queueStatusText(p: QueueProgress, nodes: readonly NodeCount[] = [], perNode = nodes.length > 1): { text: string; tooltip: string; summary: string; busy: boolean } {
  const busy = p.running + p.queued > 0;
  const shown = perNode && nodes.length > 0;
  const nodeText = shown ? ` · ${nodes.map((n) => `${n.name} ${n.running + n.finished}`).join(', ')}` : '';
  const nodeTip = shown
    ? ` Per node: ${nodes.map((n) => `${n.name}${n.address ? ` (${n.address})` : ''} ${n.running} running, ${n.finished} finished`).join('; ')}.`
    : '';
  const settled = p.done + p.failed + p.cancelled;
  const extra = [p.failed ? `${p.failed} error${p.failed === 1 ? '' : 's'}` : '', p.cancelled ? `${p.cancelled} cancelled` : ''].filter(Boolean);
  if (busy) {
    const eta = p.etaMs !== undefined ? ` · ~${formatDuration(p.etaMs)}` : '';
    const summary = `SpecWeave verifier: ${settled} of ${p.total} finished (${p.done} done${extra.length ? `, ${extra.join(', ')}` : ''}), ${p.running} running, ${p.queued} queued${p.etaMs !== undefined ? `; about ${formatDuration(p.etaMs)} left` : ''}.${nodeTip}`;
    return {
      text: `$(sync~spin) Verifier ${settled}/${p.total} · ${p.running} running · ${p.queued} queued${eta}${nodeText}`,
      tooltip: `${summary} Click to see the runs, the log, or cancel all runs.`,
      summary,
      busy,
    };
  }
  const summary = `SpecWeave verifier: idle; the last batch had ${p.done} run(s) done${extra.length ? `, ${extra.join(', ')}` : ''}.${nodeTip}`;
  return {
    text: `$(beaker) Verifier: ${p.done} done${extra.length ? ` · ${extra.join(' · ')}` : ''}${nodeText}`,
    tooltip: `${summary} Click to see the runs or the log.`,
    summary,
    busy,
  };
}
