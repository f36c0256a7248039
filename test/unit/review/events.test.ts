import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { curatorNameProblem, chooseCurator } from '../../../src/core/review/curator';
import { parseEvidence, formatEvidence } from '../../../src/core/review/evidence';
import { encodeEventId, eventIdTime } from '../../../src/core/review/eventId';
import { canonicalJson, formatEventLine, parseEventLine } from '../../../src/core/review/events';
import { ev, label } from './helpers';

describe('log lines', () => {
  const e = label('a1', 'S2', 'violated', { id: '01JABCDEFGHJKMNPQRSTVWXYZ0', time: '2026-12-01T10:00:00.000Z' });

  it('round-trips an event through its line, with the checksum last', () => {
    const line = formatEventLine(e);
    assert.match(line, /,"sum":"[0-9a-f]{16}"\}$/);
    assert.ok(!line.includes('\n'));
    const r = parseEventLine(line);
    assert.ok(r.ok);
    assert.deepEqual(r.event, e);
  });

  it('still accepts a line whose content is unchanged but reformatted by hand (spaces, key order)', () => {
    const obj = JSON.parse(formatEventLine(e)) as Record<string, unknown>;
    const reordered = JSON.stringify({ sum: obj.sum, payload: obj.payload, kind: obj.kind, task: obj.task, time: obj.time, id: obj.id, curator: obj.curator, revision: obj.revision }, null, 1).replace(/\n/g, ' ');
    const r = parseEventLine(reordered);
    assert.ok(r.ok, JSON.stringify(r));
  });

  it('rejects a line whose content was edited (checksum mismatch), naming both sums', () => {
    const line = formatEventLine(e).replace('"violated"', '"satisfied"');
    const r = parseEventLine(line);
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.reason === 'checksum' && /checksum mismatch/.test(r.message));
  });

  it('rejects invalid JSON as malformed and a missing sum as a checksum problem', () => {
    const bad = parseEventLine('{"id": "x", oops');
    assert.ok(!bad.ok && bad.reason === 'malformed');
    const nosum = parseEventLine(canonicalJson({ ...e }));
    assert.ok(!nosum.ok && nosum.reason === 'checksum');
  });

  it('rejects a well-formed line with a bad payload, naming the field', () => {
    const broken = { ...e, payload: { attempt: 'a1', spec: 'S2', verdict: 'maybe', evidence: [] } };
    const r = parseEventLine(formatEventLine(broken as typeof e));
    assert.ok(!r.ok && r.reason === 'invalid');
    assert.match(!r.ok ? r.message : '', /payload\.verdict/);
    const badEvidence = { ...e, payload: { attempt: 'a1', spec: 'S2', verdict: 'violated', evidence: [{ kind: 'trajectory_step', attempt: 'a1', step: -1 }] } };
    const r2 = parseEventLine(formatEventLine(badEvidence as typeof e));
    assert.match(!r2.ok ? r2.message : '', /payload\.evidence\[0\]\.step/);
  });

  it('keeps an event of a kind it does not know (written by a newer version)', () => {
    const future = { ...e, kind: 'repair.requested', payload: { target: 'tests' } };
    const r = parseEventLine(formatEventLine(future as unknown as typeof e));
    assert.ok(r.ok && 'unknownKind' in r.event);
  });

  it('rejects a curator name with control characters inside a line', () => {
    const r = parseEventLine(formatEventLine({ ...e, curator: 'mallory\u001b[31m' }));
    assert.ok(!r.ok && /control character/.test(r.message));
  });

  it('validates every kind', () => {
    const good = [
      ev('score', { underspecified: 0, fnSeverity: 3, fpSeverity: 1, envDefects: ['flaky'], difficulty: '1-4h' }),
      ev('submit', {}),
      ev('status', { from: 'in_review', to: 'flagged' }),
      ev('approve', { waivers: [{ rule: 'gold-passes', reason: 'no gold' }], runs: [{ attempt: 'a1', run: 'r1' }] }),
      ev('reject', { reason: 'duplicate' }),
      ev('suggestion', { suggestion: 'x', decision: 'dismissed' }),
      ev('adjudicate', { target: 'score', field: 'difficulty', value: '>4h' }),
      ev('adjudicate', { target: 'label', attempt: 'a1', spec: 'S1', verdict: 'violated' }),
      ev('undo', { event: 'E1234567' }),
      ev('revision', { from: 1, changedSpecs: ['S1'] }, { revision: 2 }),
    ];
    for (const g of good) assert.ok(parseEventLine(formatEventLine(g)).ok, g.kind);
    const bad = [
      ev('score', { underspecified: 4, fnSeverity: 0, fpSeverity: 0, envDefects: [] }),
      ev('score', { underspecified: 1, fnSeverity: 0, fpSeverity: 0, envDefects: ['cosmic_rays' as 'flaky'] }),
      ev('status', { from: 'in_review', to: 'done' as 'flagged' }),
      ev('adjudicate', { target: 'score', field: 'fnSeverity', value: '>4h' }),
      ev('reject', { reason: '' }),
    ];
    for (const b of bad) assert.equal(parseEventLine(formatEventLine(b)).ok, false, JSON.stringify(b.payload));
  });
});

describe('event ids', () => {
  it('encode the time first, so they sort by time, and decode back', () => {
    const r = new Uint8Array(10);
    const a = encodeEventId(1_700_000_000_000, r);
    const b = encodeEventId(1_700_000_000_001, r);
    assert.equal(a.length, 26);
    assert.ok(a < b);
    assert.equal(eventIdTime(a), 1_700_000_000_000);
  });
  it('use all 80 random bits', () => {
    const ones = encodeEventId(0, new Uint8Array(10).fill(255));
    assert.equal(ones.slice(10), 'ZZZZZZZZZZZZZZZZ');
  });
});

describe('curator names', () => {
  it('accepts ordinary names in any script', () => {
    assert.equal(curatorNameProblem('Ada Lovelace'), undefined);
    assert.equal(curatorNameProblem('José Núñez'), undefined);
    assert.equal(curatorNameProblem('李雷'), undefined);
  });
  it('rejects control characters, bidi overrides, line separators and empty names', () => {
    assert.match(curatorNameProblem('bob\n') ?? '', /white space|control/);
    assert.match(curatorNameProblem('bo\tb') ?? '', /U\+0009/);
    assert.match(curatorNameProblem('eve\u202egnp.exe') ?? '', /U\+202E/);
    assert.match(curatorNameProblem('a\u2028b') ?? '', /U\+2028/);
    assert.match(curatorNameProblem('a\u0085b') ?? '', /U\+0085/);
    assert.match(curatorNameProblem('') ?? '', /empty/);
    assert.match(curatorNameProblem('x'.repeat(101)) ?? '', /longer/);
  });
  it('takes the first source that has a name, and says where a bad one came from', () => {
    assert.deepEqual(chooseCurator([{ source: 'option', value: undefined }, { source: 'git', value: 'Ada\n' }, { source: 'env', value: 'root' }]), { ok: true, name: 'Ada', source: 'git' });
    assert.deepEqual(chooseCurator([{ source: 'git', value: '' }, { source: 'env', value: 'root' }]), { ok: true, name: 'root', source: 'env' });
    const bad = chooseCurator([{ source: 'option', value: 'x\u0007' }]);
    assert.ok(!bad.ok && /--curator/.test(bad.message));
    assert.equal(chooseCurator([]).ok, false);
  });
});

describe('evidence links', () => {
  it('parses every kind from the CLI form and formats it back', () => {
    const cases: Array<[string, string]> = [
      ['trajectory_step:12', 'trajectory_step:a1#12'],
      ['trajectory_step:a2#0', 'trajectory_step:a2#0'],
      ['test:T1', 'test:T1'],
      ['spec:S2', 'spec:S2'],
      ['log_line:20261201T100000-abc#42', 'log_line:20261201T100000-abc#42'],
      ['log_line:r1#stderr#7', 'log_line:r1#stderr#7'],
      ['diff_hunk:src/x.py#2', 'diff_hunk:a1@src/x.py#2'],
      ['diff_hunk:gold@src/x.py#0', 'diff_hunk:gold@src/x.py#0'],
      ['diff_hunk:tests@tests/test_x.py#1', 'diff_hunk:tests@tests/test_x.py#1'],
    ];
    for (const [input, out] of cases) {
      const r = parseEvidence(input, 'a1');
      assert.ok(r.ok, input);
      assert.equal(formatEvidence(r.link), out);
    }
  });
  it('refuses malformed locators with a message naming the form', () => {
    for (const bad of ['nothing', 'trajectory_step:x', 'log_line:r1', 'log_line:r1#0', 'diff_hunk:file', 'wat:1', 'test:']) {
      const r = parseEvidence(bad, 'a1');
      assert.equal(r.ok, false, bad);
    }
    assert.match((parseEvidence('trajectory_step:3') as { message: string }).message, /which attempt/);
  });
});
