// Helpers of the spec authoring webview tests: locators of the specs tab and the matrix, and task.json of the real
// review host's story task as it is on disk. Node code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { probe, type Harness } from './page';
import { STORY_TASK, type RealReviewHost } from './realReview';

export const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
export const specOf = (page: Page, id: string) => page.locator(`[data-testid="spec"][data-spec="${id}"]`);
export const cellOf = (page: Page, spec: string, test: string, on?: boolean) =>
  page.locator(`[data-testid="matrix-cell"][data-spec="${spec}"][data-test="${test}"]${on === undefined ? '' : `[data-on="${on ? 1 : 0}"]`}`);

export interface TaskFile {
  revision?: number;
  specs: Array<{ id: string; text: string; category: string; dependsOn?: string[] }>;
  tests: Array<{ id: string; specs?: string[] }>;
}

export function taskJson(real: RealReviewHost): string {
  return fs.readFileSync(path.join(real.root, 'tasks', STORY_TASK, 'task.json'), 'utf8');
}

export function onDisk(real: RealReviewHost): TaskFile {
  return JSON.parse(taskJson(real)) as TaskFile;
}

/** The tests of the task on disk that cover `spec`, in file order. */
export function testsOf(disk: TaskFile, spec: string): string[] {
  return disk.tests.filter((t) => t.specs?.includes(spec)).map((t) => t.id);
}

/** The story task in the real review host, its specs tab open. */
export async function openAuthoring(h: Harness): Promise<{ page: Page; real: RealReviewHost }> {
  const page = await h.open({ query: 'review=real&ds=story&authoring=1' });
  await probe(page, (g) => g.__fakeHost.resetState());
  await tid(page, 'specs-tab-specs').click();
  await tid(page, 'spec-authoring').waitFor();
  return { page, real: h.realReview(page)! };
}

/** The spec ids of the page's specs tab, in the order shown. */
export async function shownSpecs(page: Page): Promise<string[]> {
  return page.locator('[data-testid="spec"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-spec') ?? ''));
}
