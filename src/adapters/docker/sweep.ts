// Removes containers an earlier crash left behind, found by our label. A container belongs to a live process
// (this one, or another window or CLI on the same machine) while that process runs; those are left alone.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { withDeadline } from './deadline';
import type { EngineOptions } from './engine';
import { Engine, resolveEngineTarget } from './engine';
import { LABELS, OWNED_LABEL } from './runSpec';
import { hasErrno } from '../../core/errorText';

export interface SweepOptions {
  /** Containers of other machines (shared remote engine) are swept only when older than this (default 24 h). */
  foreignMaxAgeMs?: number;
  /** Remove even the containers of live processes, this one included (tests' final clean-up). */
  all?: boolean;
  hostName?: string;
  now?: number;
  /** Ends the sweep early (its engine calls are abandoned). */
  signal?: AbortSignal;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return hasErrno(e, 'EPERM');
  }
}

/** Decides whether one labelled container is an orphan; pure apart from the liveness probe. */
export function isOrphan(labels: Record<string, string>, o: SweepOptions & { isAlive?: (pid: number) => boolean }): boolean {
  if (o.all) return true;
  const host = o.hostName ?? os.hostname();
  const pid = Number(labels[LABELS.pid]);
  if (labels[LABELS.host] === host) return !(o.isAlive ?? alive)(pid);
  const created = Number(labels[LABELS.created]);
  const age = (o.now ?? Date.now()) - (Number.isFinite(created) ? created : 0);
  return age > (o.foreignMaxAgeMs ?? 24 * 3600_000);
}

/** Lists our containers and removes the orphans (and their anonymous volumes). Returns the ids removed. */
export async function sweepOrphans(engine: Engine, o: SweepOptions = {}): Promise<string[]> {
  const docker = await engine.docker();
  const list = await withDeadline(
    'listing our containers',
    10_000,
    (s) => docker.listContainers({ all: true, filters: { label: [`${OWNED_LABEL}=1`] }, abortSignal: s }),
    o.signal,
  );
  const removed: string[] = [];
  await Promise.all(
    list
      .filter((c) => isOrphan(c.Labels ?? {}, o))
      .map(async (c) => {
        try {
          await withDeadline(
            `removing container ${c.Id.slice(0, 12)}`,
            15_000,
            (s) => docker.getContainer(c.Id).remove({ force: true, v: true, abortSignal: s }),
            o.signal,
          );
          removed.push(c.Id);
        } catch (e) {
          // Already gone (another sweeper, or its own run finished) is fine.
          if ((e as { statusCode?: number }).statusCode !== 404) throw e;
        }
      }),
  );
  return removed;
}

/**
 * The sweep at the start of a CLI command or of the extension: only for a local engine whose socket exists, with a
 * short first contact, and never an error (no engine is not the starting command's problem). Returns the ids removed.
 */
export async function sweepAtStartup(o: EngineOptions & { budgetMs?: number } = {}): Promise<string[]> {
  try {
    const target = resolveEngineTarget(o);
    if (target.transport !== 'unix' || !target.socketPath || !fs.existsSync(target.socketPath)) return [];
    const engine = new Engine({ ...o, pingTimeoutMs: o.pingTimeoutMs ?? 300 });
    return await sweepOrphans(engine, { signal: AbortSignal.timeout(o.budgetMs ?? 3000) });
  } catch {
    return [];
  }
}

/** Our containers currently known to the engine (for tests and diagnostics). */
export async function listOwned(engine: Engine): Promise<{ id: string; labels: Record<string, string>; state: string }[]> {
  const docker = await engine.docker();
  const list = await withDeadline('listing our containers', 10_000, (s) =>
    docker.listContainers({ all: true, filters: { label: [`${OWNED_LABEL}=1`] }, abortSignal: s }),
  );
  return list.map((c) => ({ id: c.Id, labels: c.Labels ?? {}, state: c.State }));
}

/**
 * The swarm's services and configs of ours that an earlier crash left (swarmJobs.ts labels them as it labels
 * containers): removed unless their process lives. A config still in use by a service is refused by the engine and
 * stays. Returns the names removed.
 */
export async function sweepSwarmOrphans(engine: Engine, o: SweepOptions = {}): Promise<string[]> {
  const docker = await engine.docker();
  const filters = { label: [`${OWNED_LABEL}=true`] };
  const removed: string[] = [];
  const services = await withDeadline('listing our swarm services', 10_000, () => docker.listServices({ filters }), o.signal);
  for (const s of services) {
    if (!isOrphan(s.Spec?.Labels ?? {}, o)) continue;
    try {
      await withDeadline(`removing service ${s.Spec?.Name ?? s.ID}`, 15_000, () => docker.getService(s.ID).remove(), o.signal);
      removed.push(`service ${s.Spec?.Name ?? s.ID}`);
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode !== 404) throw e;
    }
  }
  const configs = (await withDeadline('listing our swarm configs', 10_000, () => docker.listConfigs({ filters }), o.signal)) as Array<{ ID: string; Spec?: { Name?: string; Labels?: Record<string, string> } }>;
  for (const c of configs) {
    if (!isOrphan(c.Spec?.Labels ?? {}, o)) continue;
    try {
      await withDeadline(`removing config ${c.Spec?.Name ?? c.ID}`, 15_000, () => docker.getConfig(c.ID).remove(), o.signal);
      removed.push(`config ${c.Spec?.Name ?? c.ID}`);
    } catch (e) {
      // 404: gone; 400/409: still in use by a service that lives.
      const code = (e as { statusCode?: number }).statusCode;
      if (code !== 404 && code !== 400 && code !== 409) throw e;
    }
  }
  return removed;
}
