#!/usr/bin/env node
// Prints a compact list of the failed tests in a layer's log (node's test runner or mocha), two lines per failure:
// the test's title and the first line of its error. scripts/test.sh puts it under the summary, so that the last
// lines a CI run prints say which test failed and why, not only which layer.
//
// Usage: node scripts/failures.mjs LOG [MAX]
import { readFileSync } from 'node:fs';

const [file, maxArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/failures.mjs LOG [MAX]');
  process.exit(2);
}
const max = Number(maxArg ?? 6);
// eslint-disable-next-line no-control-regex
const lines = readFileSync(file, 'utf8').replace(/\x1b\[[0-9;]*m/g, '').split('\n');
const clip = (s) => (s.length > 160 ? `${s.slice(0, 157)}...` : s);
const failures = [];

// node --test (spec reporter): "✖ failing tests:", then per failure "test at FILE:L:C", "✖ TITLE (ms)", the error.
// A layer of two runs (scripts/test-integration.sh) has one such list per run; a list ends where the next run's
// report starts (its "=== " heading).
const starts = lines.flatMap((l, i) => (l === '✖ failing tests:' ? [i] : []));
for (const nodeStart of starts) {
  let end = nodeStart + 1;
  while (end < lines.length && lines[end] !== '✖ failing tests:' && !lines[end].startsWith('=== ')) end++;
  for (let i = nodeStart + 1; i < end; i++) {
    const m = /^✖ (.*?)(?: \([\d.]+m?s\))?$/.exec(lines[i]);
    if (!m) continue;
    const where = /^test at (.*)$/.exec(lines[i - 1] ?? '')?.[1] ?? '';
    const error = lines.slice(i + 1, i + 6).map((l) => l.trim()).find((l) => l !== '') ?? '';
    failures.push({ title: where ? `${m[1]} (${where})` : m[1], error });
  }
}

// mocha (spec reporter): "N failing", then per failure "  1) suite", "       title:", "     Error: ...".
for (let i = 0; i < lines.length; i++) {
  if (!/^\s+\d+ failing$/.test(lines[i])) continue;
  for (let j = i + 1; j < lines.length; j++) {
    const head = /^\s+\d+\) (.*)$/.exec(lines[j]);
    if (!head) continue;
    const title = [head[1].trim()];
    let k = j + 1;
    while (k < lines.length && lines[k].trim() !== '' && !/^\s*[A-Za-z]*Error\b|^\s*Error/.test(lines[k]) && title.length < 4) {
      title.push(lines[k].trim());
      k++;
    }
    const error = lines.slice(k, k + 6).map((l) => l.trim()).find((l) => l !== '') ?? '';
    failures.push({ title: title.join(' ').replace(/:$/, ''), error });
    j = k;
  }
}

for (const f of failures.slice(0, max)) {
  console.log(`  ✖ ${clip(f.title)}`);
  if (f.error) console.log(`      ${clip(f.error)}`);
}
if (failures.length > max) console.log(`  ... and ${failures.length - max} more (see the log)`);
