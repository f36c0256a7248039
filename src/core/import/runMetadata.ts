// What a run folder's own metadata says about its solver: SWE-bench experiments' `metadata.yaml` (`tags.model`,
// `info.name`), SWE-agent's `args.yaml` (0.x, `agent.model.model_name`) and `run_batch.config.yaml` (1.x, a YAML
// document holding the config as one JSON string, `agent.model.name`), and `metadata.json` (OpenHands' `llm_config`,
// `agent` + `model`). The run keeps its folder's name; these give the model and other names reports may use.
import type { Problem } from '../model';
import { parseJson } from '../json';
import { isObject } from './records';
import { metadataModels } from './reports';
import { parseYaml } from './simpleYaml';

export const RUN_METADATA_FILES = new Set(['metadata.yaml', 'metadata.yml', 'metadata.json', 'args.yaml', 'run_batch.config.yaml']);

export interface RunMetadata {
  /** Model names, best first. */
  models: string[];
  /** Other names of the run or system (`info.name`, a flat `name`). */
  names: string[];
}

const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() ? x.trim() : undefined);
const path = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), v);

/** Reads one metadata file; a file this cannot read is a warning naming it, and contributes nothing. */
export function readRunMetadata(name: string, text: string, file: string): { meta: RunMetadata; problems: Problem[] } {
  const none = { models: [], names: [] };
  const warn = (p: Problem, why: string): { meta: RunMetadata; problems: Problem[] } => ({ meta: none, problems: [{ ...p, severity: 'warning', message: `${p.message}; ${why}` }] });
  let value: unknown;
  if (name.endsWith('.json')) {
    const r = parseJson(text, file);
    if (!r.ok) return warn(r.problem, 'its model names are not used');
    value = r.value;
  } else {
    const r = parseYaml(text, file);
    if (!r.ok) return warn(r.problem, 'its model names are not used');
    value = r.value;
  }
  // SWE-agent 1.x: `yaml.dump(config.model_dump_json())`, one JSON string.
  if (typeof value === 'string' && value.trimStart().startsWith('{')) {
    const r = parseJson(value, file);
    if (!r.ok) return warn({ ...r.problem, line: 1 }, 'the JSON inside this YAML string is not read');
    value = r.value;
  }
  if (!isObject(value)) return { meta: none, problems: [] };
  const models: string[] = [];
  const names: string[] = [];
  const tagModel = path(value, 'tags', 'model');
  for (const m of Array.isArray(tagModel) ? tagModel : [tagModel]) {
    const s = str(m);
    if (s) models.push(s);
  }
  for (const m of [str(path(value, 'agent', 'model', 'model_name')), str(path(value, 'agent', 'model', 'name'))]) if (m) models.push(m);
  if (name.endsWith('.json')) models.push(...metadataModels(value));
  for (const n of [str(path(value, 'info', 'name')), typeof value.name === 'string' ? str(value.name) : undefined]) if (n) names.push(n);
  return { meta: { models: [...new Set(models)], names: [...new Set(names)] }, problems: [] };
}
