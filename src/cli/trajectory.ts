// `specweave trajectory FILE`: what the trajectory reader makes of one file, without a dataset: the format it
// detected, steps by kind, model, cost, tokens, exit status, the patch it records, what it skipped and why, so a
// user can check a file before importing it. Every text from the file is untrusted and printed escaped.
import * as path from 'node:path';
import { listTrajectoryInstances, readTrajectory, readTrajectoryInstance } from '../adapters/fs/trajectoryReader';
import type { TrajectoryInstance } from '../adapters/fs/trajectoryReader';
import type { NormalizedTrajectory, Problem, TrajectoryFormat, TrajectoryStep, TrajectorySummary } from '../core/model';
import { filePath, parsePatch } from '../core/patch';
import { UsageError } from './args';
import { defineCommand } from './command';
import { err, formatProblem, out, printJson, table, termSafe } from './output';

/** What each format is, in words. */
const FORMAT_NAMES: Record<TrajectoryFormat, string> = {
  'swe-agent': 'SWE-agent .traj',
  'swe-agent-retry': 'SWE-agent retry-agent .traj',
  'mini-swe-agent': 'mini-swe-agent messages',
  'openhands-events': 'OpenHands event stream',
  'openhands-eval': 'OpenHands evaluation output',
  'openhands-resolver': 'OpenHands issue-resolver output',
  atif: 'Harbor ATIF trajectory',
  'claude-code': 'Claude Code session / stream-json',
  codex: 'Codex CLI rollout',
  'codex-exec': 'codex exec --json output',
  'chat-messages': 'chat-message list',
  litellm: 'LiteLLM call log',
  agentless: 'Agentless stage output',
  autocoderover: 'AutoCodeRover task folder',
};

/** Untrusted text on one line, inert on a terminal (`termSafe`); `keepTabs` for a patch line. */
export function visible(s: string, keepTabs = false): string {
  return keepTabs ? termSafe(s, 'block').replace(/\n/g, '\\n') : termSafe(s, 'line');
}

function short(s: string, n: number): string {
  const line = visible(s.trim());
  return line.length > n ? line.slice(0, n - 1) + '…' : line;
}

export interface PatchStats {
  files: Array<{ path: string; status: string; additions: number; deletions: number }>;
  additions: number;
  deletions: number;
}

function patchStats(submission: string | undefined): PatchStats | null {
  if (submission === undefined) return null;
  const files = parsePatch(submission, 'submission').files.map((f) => ({ path: filePath(f), status: f.status, additions: f.additions, deletions: f.deletions }));
  return { files, additions: files.reduce((n, f) => n + f.additions, 0), deletions: files.reduce((n, f) => n + f.deletions, 0) };
}

function byKind(s: TrajectorySummary): string {
  return Object.entries(s.byKind)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

function stepJson(s: TrajectoryStep): Record<string, unknown> {
  return {
    index: s.index,
    kind: s.kind,
    text: s.text,
    ...(s.sourceRef !== undefined ? { sourceRef: s.sourceRef } : {}),
    ...(s.toolCalls !== undefined ? { toolCalls: s.toolCalls } : {}),
    ...(s.edits !== undefined ? { edits: s.edits } : {}),
  };
}

export const trajectoryCommand = defineCommand({
  name: 'trajectory',
  summary: 'what the reader makes of one trajectory file: format, steps by kind, model, cost, exit status, patch',
  usage: 'specweave trajectory FILE [--instance ID] [--steps] [--patch] [--json]',
  flags: {
    instance: { type: 'string', help: 'in a file of one instance per line, the instance to show (default: the first)' },
    steps: { type: 'boolean', help: 'also list the steps: index, kind, where in the file, first line' },
    patch: { type: 'boolean', help: 'also print the patch the trajectory records' },
    json: { type: 'boolean', help: 'print { file, format, summary, patch, instances, steps?, problems } as JSON (see docs/cli.md)' },
  },
  positional: { min: 1, max: 1 },
  async run(a) {
    const file = a.positional[0]!;
    const abs = path.resolve(file);
    const wanted = a.strings.instance;
    const listed = await listTrajectoryInstances(abs, { fileLabel: file });
    if (!listed.ok) return fail(listed.problem, a.booleans.json === true);
    let chosen: TrajectoryInstance = listed.instances[0]!;
    if (wanted !== undefined) {
      const hit = listed.instances.find((i) => i.instanceId === wanted);
      if (hit === undefined) throw new UsageError(`no instance "${visible(wanted)}" in ${visible(file)} (it holds ${listed.instances.length})`);
      chosen = hit;
    }
    const problems: Problem[] = [...listed.problems];
    let trajectory: NormalizedTrajectory | undefined;
    if (a.booleans.steps) {
      const r = chosen.byteRange !== undefined && listed.instances.length > 1 ? await readTrajectoryInstance(abs, chosen.byteRange, { fileLabel: file }) : await readTrajectory(abs, { fileLabel: file });
      if (!r.ok) return fail(r.problem, a.booleans.json === true);
      trajectory = r.trajectory;
    }
    const s = chosen.summary;
    const patch = patchStats(s.submission);
    if (a.booleans.json) {
      printJson({
        file,
        format: s.format,
        summary: s,
        patch,
        instances: listed.instances.map((i) => ({ ...(i.instanceId !== undefined ? { instanceId: i.instanceId } : {}), format: i.summary.format, steps: i.summary.steps, byteRange: i.byteRange })),
        ...(trajectory !== undefined ? { steps: trajectory.steps.map(stepJson) } : {}),
        problems,
      });
      return 0;
    }
    const w = (t: string) => out(t);
    const rows: Array<[string, string]> = [
      ['format', `${s.format} (${FORMAT_NAMES[s.format] ?? s.format})`],
      ['steps', `${s.steps}${s.steps > 0 ? `: ${byKind(s)}` : ''}`],
      ['model', s.model !== undefined ? visible(s.model) : '(not recorded)'],
      ['cost', s.costUsd !== undefined ? `$${s.costUsd.toFixed(4)}` : '(not recorded)'],
      ['tokens', s.tokens !== undefined ? `${s.tokens.input ?? '?'} in, ${s.tokens.output ?? '?'} out` : '(not recorded)'],
      ['exit', s.exitStatus !== undefined ? short(s.exitStatus, 200) : '(not recorded)'],
      ['instance', s.instanceId !== undefined ? visible(s.instanceId) : '(not recorded)'],
    ];
    if (s.repo !== undefined || s.baseCommit !== undefined) rows.push(['repo', `${visible(s.repo ?? '?')}${s.baseCommit !== undefined ? ` @ ${visible(s.baseCommit)}` : ''}`]);
    if (s.claimed !== undefined) rows.push(['claimed', `${visible(s.claimed.status ?? '')}${s.claimed.summary !== undefined ? `: ${short(s.claimed.summary, 200)}` : ''} (the agent's own claim, not a verdict)`]);
    rows.push([
      'patch',
      patch === null
        ? '(none recorded)'
        : `${patch.files.length} file(s), +${patch.additions}/-${patch.deletions}${patch.files.length > 0 ? `: ${patch.files.map((f) => `${visible(f.path)} (+${f.additions}/-${f.deletions})`).join(', ')}` : ' (not a unified diff)'}`,
    ]);
    w(`${visible(file)}\n`);
    for (const [k, v] of rows) w(`${k.padEnd(9)} ${v}\n`);
    if (listed.instances.length > 1) {
      w(`\n${listed.instances.length} instances, one per line${wanted === undefined ? '; shown: the first (--instance ID for another)' : ''}\n`);
      w(
        table(
          ['INSTANCE', 'STEPS', 'EXIT', 'PATCH'],
          listed.instances.map((i) => [visible(i.instanceId ?? '?'), i.summary.steps, short(i.summary.exitStatus ?? '', 60), i.summary.submission !== undefined ? 'yes' : '']),
        ),
      );
    }
    for (const n of s.notes ?? []) w(`note: ${visible(n)}\n`);
    if (trajectory !== undefined) {
      w(`\nSTEPS (${trajectory.steps.length})\n`);
      w(table(['#', 'KIND', 'WHERE', 'TEXT'], trajectory.steps.map((x) => [x.index, x.kind, visible(x.sourceRef ?? ''), short(x.text.split('\n').find((l) => l.trim().length > 0) ?? '', 100)])));
    }
    if (a.booleans.patch && s.submission !== undefined) {
      w('\nPATCH\n');
      // Multi-line: every line escaped on its own, tabs kept.
      for (const l of s.submission.replace(/\n$/, '').split('\n')) w(`${visible(l, true)}\n`);
    }
    for (const p of problems) err(formatProblem(p) + '\n');
    return 0;
  },
});

function fail(problem: Problem, json: boolean): number {
  if (json) printJson({ file: problem.file, error: problem });
  else err(formatProblem(problem) + '\n');
  return 1;
}
