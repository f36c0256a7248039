// What a curator should know about an attempt's patch before anything runs: a Markdown fence around it, hunks git
// will reject, test files it edits, files it adds that the gold patch does not.
import { filePath, notAPatch, parsePatch, testFilesOf } from '../patch';
import { describeFence, findFence } from './fences';
import type { Fence } from './fences';

export function patchFlags(patch: string, goldPatch: string | undefined, testPatch: string | undefined): string[] {
  return patchChecker(goldPatch, testPatch)(patch);
}

/** patchFlags for many attempts of one task: the gold and test patches are parsed once. */
export function patchChecker(goldPatch: string | undefined, testPatch: string | undefined): (patch: string) => string[] {
  const testSide = new Set(testPatch ? parsePatch(testPatch, 'tests.patch').files.map(filePath) : []);
  const goldSide = new Set(goldPatch ? parsePatch(goldPatch, 'gold.patch').files.map(filePath) : []);
  const sides = { testSide, goldSide, hasGold: goldPatch !== undefined };
  return (patch) => {
    if (patch.trim().length === 0) return ['the patch is empty'];
    // A fenced patch is checked inside its fence: the fence lines are no hunk lines.
    const fence = findFence(patch);
    const flags: string[] = [];
    if (fence) {
      flags.push(`the patch is wrapped in a Markdown fence (${describeFence(fence)}); kept as written: import with --strip-fences to store the diff inside it`);
    }
    return [...flags, ...diffFlags(fence ? fence.inner : patch, fence ? fence.open.line : 0, sides)];
  };
}

function diffFlags(patch: string, lineOffset: number, sides: { testSide: Set<string>; goldSide: Set<string>; hasGold: boolean }): string[] {
  const { testSide, goldSide } = sides;
  const bad = notAPatch(patch, 'patch');
  if (bad) return [bad.message];
  const flags: string[] = [];
  const parsed = parsePatch(patch, 'patch');
  const hunkProblems = parsed.problems.filter((p) => /hunk header/.test(p.message));
  if (hunkProblems.length > 0) {
    flags.push(
      `${hunkProblems.length} malformed hunk(s): the header's line counts disagree with the body (first at patch line ` +
        `${(hunkProblems[0]?.line ?? 0) + lineOffset}); kept as written, git apply will likely reject it`,
    );
  }
  const touched = parsed.files.map(filePath).filter(Boolean);
  const editsTests = touched.filter((p) => testSide.has(p));
  if (editsTests.length > 0) {
    flags.push(`edits ${editsTests.join(', ')}, which the test patch also changes (the harness restores test files before applying it)`);
  }
  const otherTests = testFilesOf(parsed).filter((p) => !testSide.has(p) && !goldSide.has(p));
  const added = parsed.files.filter((f) => f.status === 'added').map(filePath).filter((p) => !goldSide.has(p));
  const strayTests = otherTests.filter((p) => !added.includes(p));
  if (strayTests.length > 0) flags.push(`edits test file(s) ${strayTests.join(', ')}`);
  if (sides.hasGold && added.length > 0) flags.push(`adds ${added.join(', ')}, which the gold patch does not`);
  return flags;
}

/** `--strip-fences`: the diff inside a fence, and the flag that says it was taken out (`from` = where the original is). */
export function stripFence(patch: string, from: string): { patch: string; fence?: Fence; flag?: string } {
  const fence = findFence(patch);
  if (!fence) return { patch };
  return {
    patch: fence.inner,
    fence,
    flag: `the Markdown fence around the patch was stripped (${describeFence(fence, 'dropped')}); the patch as written is at ${from}`,
  };
}
