// The one reader of the `specweave.*` settings: every feature reads its settings here (the curator name and the
// consensus policy through the open dataset's owner only). Each value is checked and falls back to its default.
import * as vscode from 'vscode';
import type { ConsensusPolicy } from '../core/review/consensus';
import { CONSENSUS_POLICIES } from '../core/review/consensus';
import type { LlmSettings } from '../adapters/llm/client';
import { DEFAULT_MAX_REPLY_BYTES, DEFAULT_SETTINGS } from '../adapters/llm/client';
import type { SolverLimits } from '../core/solver/agent';
import { DEFAULT_LIMITS } from '../core/solver/agent';
import type { SolveBand } from '../core/solver/difficulty';
import { bandFromSetting } from '../core/solver/difficulty';

export interface Settings {
  /** Dataset folder to open at start, relative to the first workspace folder or absolute. */
  datasetPath: string;
  dockerHost: string;
  gitPath: string;
  persistFilters: boolean;
  /** `specweave.candidates.revealOnStartup` (default false): the SpecWeave view comes forward when the dataset opens at start-up. */
  revealOnStartup: boolean;
  /** `specweave.verifier.concurrency`: runs at once; undefined (0 or not a number): chosen from the machine. */
  verifierConcurrency?: number;
  /** `specweave.verifier.reuseRuns` (default true): a run with the same inputs is reused instead of run again. */
  verifierReuseRuns: boolean;
  /** `specweave.verifier.backend` as set (checked by `parseBackend` where runs start). */
  verifierBackend: string;
  /** `specweave.verifier.warm` (default false): reuse a container per task revision, reset between runs. */
  verifierWarm: boolean;
  /** `specweave.verifier.pool`: the engines of the `pool` backend, each `ADDRESS[,capacity=N]` (checked where runs start). */
  verifierPool: unknown;
  /** `specweave.verifier.swarmConstraints`: placement constraints of the `swarm` backend's runs (checked where runs start). */
  verifierSwarmConstraints: unknown;
  /** `specweave.verifier.kubernetesNamespace`: the `kubernetes` backend's namespace ('' the kubeconfig context's). */
  verifierKubernetesNamespace: string;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('specweave');
  return {
    datasetPath: c.get<string>('dataset.path', '').trim(),
    dockerHost: c.get<string>('docker.host', '').trim(),
    gitPath: c.get<string>('git.path', '').trim() || 'git',
    revealOnStartup: c.get<unknown>('candidates.revealOnStartup', false) === true,
    persistFilters: c.get<boolean>('candidates.persistFilters', true),
    ...verifierConcurrency(c.get<number>('verifier.concurrency', 0)),
    verifierReuseRuns: c.get<boolean>('verifier.reuseRuns', true) !== false,
    verifierBackend: String(c.get<string>('verifier.backend', 'local') ?? 'local'),
    verifierWarm: c.get<boolean>('verifier.warm', false) === true,
    verifierPool: c.get<unknown>('verifier.pool', []),
    verifierSwarmConstraints: c.get<unknown>('verifier.swarmConstraints', []),
    verifierKubernetesNamespace: String(c.get<string>('verifier.kubernetesNamespace', '') ?? '').trim(),
  };
}

function verifierConcurrency(set: unknown): { verifierConcurrency?: number } {
  return typeof set === 'number' && Number.isFinite(set) && set >= 1 ? { verifierConcurrency: Math.floor(set) } : {};
}

export interface CurationSettings {
  /** `specweave.curator.name`; empty: git's user.name. */
  curatorName: string;
  blind: boolean;
  policy: ConsensusPolicy;
}

export function readCurationSettings(): CurationSettings {
  const c = vscode.workspace.getConfiguration('specweave');
  const policy = c.get<string>('curation.policy', 'adjudicate');
  return {
    // Taken as typed (not trimmed): a name with stray white space is refused, not silently changed.
    curatorName: c.get<string>('curator.name', ''),
    blind: c.get<boolean>('curation.blindMode', false),
    policy: (CONSENSUS_POLICIES as readonly string[]).includes(policy) ? (policy as ConsensusPolicy) : 'adjudicate',
  };
}

/** `specweave.repair.*`: the endpoint and limits of the repair agent's model. */
export function readRepairSettings(): LlmSettings {
  const c = vscode.workspace.getConfiguration('specweave.repair');
  const num = (k: string, d: number, min: number, max: number) => {
    const v = c.get<number>(k, d);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : d;
  };
  return {
    baseUrl: c.get<string>('baseUrl', DEFAULT_SETTINGS.baseUrl).trim() || DEFAULT_SETTINGS.baseUrl,
    model: c.get<string>('model', DEFAULT_SETTINGS.model).trim() || DEFAULT_SETTINGS.model,
    temperature: num('temperature', DEFAULT_SETTINGS.temperature, 0, 2),
    maxTokens: num('maxTokens', DEFAULT_SETTINGS.maxTokens, 2048, 2_000_000),
    timeoutSec: num('timeoutSec', DEFAULT_SETTINGS.timeoutSec, 1, 3600),
    maxReplyBytes: num('maxReplyBytes', DEFAULT_MAX_REPLY_BYTES, 1024, 64 * 1024 * 1024),
  };
}


export interface SolverSettings {
  /** The models fresh trials run with, at least one (the repair model when the setting names none). */
  models: string[];
  trials: number;
  concurrency: number;
  limits: Pick<SolverLimits, 'stepLimit' | 'costLimitUsd'>;
}

/** `specweave.solver.*`: what Run Fresh Trials and the trials of a revalidation run (on the repair endpoint). */
export function readSolverSettings(): SolverSettings {
  const c = vscode.workspace.getConfiguration('specweave.solver');
  const num = (k: string, d: number, min: number, max: number) => {
    const v = c.get<number>(k, d);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : d;
  };
  const raw = c.get<unknown>('models', []);
  const named = Array.isArray(raw) ? raw.filter((m): m is string => typeof m === 'string').map((m) => m.trim()).filter((m) => m.length > 0) : [];
  const models = [...new Set(named)];
  return {
    models: models.length > 0 ? models : [readRepairSettings().model],
    trials: Math.round(num('trials', 1, 1, 100)),
    concurrency: Math.round(num('concurrency', 2, 1, 64)),
    limits: { stepLimit: Math.round(num('stepLimit', DEFAULT_LIMITS.stepLimit, 1, 100_000)), costLimitUsd: num('costLimitUsd', DEFAULT_LIMITS.costLimitUsd, 0, 100_000) },
  };
}

/** The setting of the solve-rate band (the mixed-success filter, the statistics' funnel); every refusal names it. */
export const BAND_SETTING = 'specweave.difficulty.band';

/** `specweave.difficulty.band`: the band, or the default band and why the value was not used. */
export function readDifficultyBand(): { band: SolveBand; problem?: string } {
  return bandFromSetting(vscode.workspace.getConfiguration('specweave').get<unknown>('difficulty.band'), BAND_SETTING);
}

/** Sets `specweave.curator.name` in the user settings (the one write to the settings). */
export async function writeCuratorName(name: string): Promise<void> {
  await vscode.workspace.getConfiguration('specweave').update('curator.name', name, vscode.ConfigurationTarget.Global);
}
