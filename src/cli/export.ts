// `specweave export DATASET --out DIR [--format specweave|swebench]`: the curated set of approved tasks.
import { ExportError, writeCuratedSet } from '../adapters/fs/curatedSetWriter';
import type { ExportFormat } from '../core/review/exportSet';
import { EXPORT_FORMATS, EXPORT_MANIFEST } from '../core/review/exportSet';
import { UsageError } from './args';
import { defineCommand } from './command';
import { jsonFlag, openStore, policyFlag } from './curationCommon';
import { err, one, out, printJson } from './output';

export const exportCommand = defineCommand({
  name: 'export',
  summary: 'write the curated set (approved tasks only) with provenance and a SHA-256 manifest',
  usage: 'specweave export DATASET --out DIR [--format specweave|swebench] [--json]',
  flags: {
    out: { type: 'string', help: 'output folder (created; an earlier export there is replaced)' },
    format: { type: 'string', help: 'specweave (a dataset folder, default) or swebench (JSONL rows)' },
    ...policyFlag,
    ...jsonFlag,
  },
  positional: { min: 1, max: 1 },
  async run(a) {
    const outDir = a.strings.out;
    if (!outDir) throw new UsageError('--out is required');
    const format = (a.strings.format ?? 'specweave') as ExportFormat;
    if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
    const store = openStore(a);
    const plan = store.exportPlan(format);
    try {
      writeCuratedSet(outDir, plan);
    } catch (e) {
      if (!(e instanceof ExportError)) throw e;
      err(`specweave export: ${one(e.message)}\n`);
      return 1;
    }
    if (a.booleans.json) printJson({ out: outDir, format, tasks: plan.tasks, files: plan.files.map((f) => f.path) });
    else out(`${plan.tasks.length} approved task(s) exported to ${one(outDir)} (${format}, ${plan.files.length} files; checksums in ${EXPORT_MANIFEST})\n`);
    return 0;
  },
});
