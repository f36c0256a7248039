// Which repository files a "tests" repair may touch: the task's own test files (those its test patch touches) and
// paths that look like tests by the usual conventions. Everything else is library code or configuration, which a
// repair of the tests must never rewrite (it would land in tests.patch and change what the attempts are graded on).

/** Folders whose contents are tests by convention (pytest, Django, Jest, RSpec, Maven). */
const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs']);

/** File names that are tests or test support by convention, wherever they are. */
const TEST_FILES: RegExp[] = [
  /^test_[^/]*\.py$/,
  /^[^/]*_tests?\.py$/,
  /^tests?\.py$/,
  /^conftest\.py$/,
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /_test\.go$/,
  /_(spec|test)\.rb$/,
  /Tests?\.(java|kt|cs|scala)$/,
];

/** True when a repository path looks like a test file (a test folder on the way, or a test file name). */
export function isTestLookingPath(repoPath: string): boolean {
  const parts = repoPath.split('/').filter((p) => p.length > 0);
  const name = parts[parts.length - 1] ?? '';
  if (parts.slice(0, -1).some((d) => TEST_DIRS.has(d))) return true;
  return TEST_FILES.some((re) => re.test(name));
}

/**
 * Why a path may not be a test file of a repair: undefined when it is one of the task's test files or looks like a
 * test, else the reason, fit for the model's retry and for the curator.
 */
export function notATestFile(repoPath: string, taskTestFiles: Iterable<string>): string | undefined {
  for (const p of taskTestFiles) if (p === repoPath) return undefined;
  if (isTestLookingPath(repoPath)) return undefined;
  return `"${repoPath}" is not a test file (not touched by the task's test patch, and not under a tests/ folder or named like test_*.py, *_test.py, conftest.py); a tests suggestion may change test files only`;
}
