// Why the importer does not read a file it found under --trajectories or --reports: every such file is listed under
// "Ignored" with one of these reasons, so a curator can tell "not supported" from "not needed".

/** `# aider chat started at 2025-12-24 16:45:52` opens each launch in `.aider.chat.history.md`. */
const AIDER_START = /^# aider chat started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;

export const AIDER_REASON = 'Aider chat history (Markdown): no instance, model, cost or patch recorded; not imported';

/** An Aider chat history, by its name or its first non-blank line. */
export function isAiderHistory(name: string, head: string | undefined): boolean {
  if (name.endsWith('.aider.chat.history.md')) return true;
  const first = head?.replace(/^\ufeff/, '').split(/\r?\n/).find((l) => l.trim() !== '');
  return first !== undefined && AIDER_START.test(first);
}

/**
 * The reason a file is not read, from its name (and, for Markdown, its first bytes). `where` is the option that
 * found it: under --trajectories only trajectories and predictions are read, under --reports only reports.
 */
export function ignoredReason(name: string, head: string | undefined, where: 'trajectories' | 'reports'): string {
  const lower = name.toLowerCase();
  if (isAiderHistory(name, head)) return AIDER_REASON;
  if (lower.endsWith('.aider.input.history') || lower.endsWith('.aider.llm.history')) return "Aider's input history: not imported (it records what was typed, not a trajectory)";
  if (where === 'trajectories' && (/^(report|results|results_summary|final_report|eval_results|per_instance_details)\.json$/.test(lower) || /_result\.json$/.test(lower))) {
    return 'an evaluation report: give it (or its folder) with --reports';
  }
  if (/^(run_batch_)?exit_statuses[\w.-]*\.ya?ml$/.test(lower)) return 'exit statuses by instance: not needed, each trajectory records its own';
  if (/\.log$/.test(lower)) return 'a log file: not read';
  if (lower === 'test_output.txt' || lower === 'test_output_pre_gold.txt') return "the harness's test output: not graded again (the report beside it, if any, holds the verdict)";
  if (lower === 'eval.sh' || lower === 'run_script.sh' || lower.endsWith('_entryscript.sh')) return "the harness's evaluation script: not needed";
  if (lower === 'dockerfile' || lower === 'setup_repo.sh') return 'an image build file: not needed';
  if (/\.(patch|diff)$/.test(lower)) return where === 'trajectories' ? 'a patch file: the run\'s predictions and trajectories carry the patches' : 'a patch with no report beside it';
  if (/\.config\.yaml$/.test(lower)) return "SWE-agent's per-instance configuration: the run's model is read from run_batch.config.yaml (or one of these)";
  if (/\.ya?ml$/.test(lower)) return 'a YAML file this importer does not read';
  if (/\.(md|txt|csv|html)$/.test(lower)) return where === 'trajectories' ? 'a text file, not a trajectory' : 'a text file, not a report';
  if (/\.(png|jpe?g|gif|svg|webp|ico)$/.test(lower)) return 'an image';
  if (/\.(py|sh|js|ts)$/.test(lower)) return 'a script';
  return where === 'trajectories' ? 'not a trajectory or predictions file' : 'not a report this importer reads';
}
