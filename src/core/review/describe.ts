// One line of plain text per event, for the log command and the task history.
import { formatEvidence } from './evidence';
import type { ReviewEvent } from './events';

export function describeEvent(e: ReviewEvent): string {
  if ('unknownKind' in e) return `${e.kind} (an event kind this version does not know)`;
  const note = (n: string | undefined) => (n ? ` — ${oneLine(n)}` : '');
  switch (e.kind) {
    case 'label': {
      const ev = e.payload.evidence.length > 0 ? ` [${e.payload.evidence.map(formatEvidence).join(', ')}]` : '';
      return `label ${e.payload.attempt} × ${e.payload.spec}: ${e.payload.verdict}${ev}${note(e.payload.note)}`;
    }
    case 'score': {
      const s = e.payload;
      const parts = [`underspecified ${s.underspecified}`, `fn ${s.fnSeverity}`, `fp ${s.fpSeverity}`];
      if (s.envDefects.length > 0) parts.push(`env ${s.envDefects.join('+')}`);
      if (s.difficulty) parts.push(`difficulty ${s.difficulty}`);
      if (s.otherIssues) parts.push(`other: ${oneLine(s.otherIssues)}`);
      return `score ${parts.join(', ')}${note(s.note)}`;
    }
    case 'submit':
      return `submit${note(e.payload.note)}`;
    case 'status':
      return `status ${e.payload.from} -> ${e.payload.to}${note(e.payload.note)}`;
    case 'approve': {
      const w = e.payload.waivers.map((x) => `${x.rule} (${oneLine(x.reason)})`);
      return `approve${w.length > 0 ? ` waiving ${w.join(', ')}` : ''}${note(e.payload.note)}`;
    }
    case 'reject':
      return `reject — ${oneLine(e.payload.reason)}`;
    case 'suggestion':
      return `suggestion ${e.payload.suggestion} ${e.payload.decision}${note(e.payload.note)}`;
    case 'adjudicate': {
      const p = e.payload;
      const what = p.target === 'label' ? `${p.attempt} × ${p.spec}: ${p.verdict}` : `${p.field}: ${Array.isArray(p.value) ? p.value.join('+') || 'none' : p.value}`;
      return `adjudicate ${what}${note(p.note)}`;
    }
    case 'undo':
      return `undo ${e.payload.event}${note(e.payload.note)}`;
    case 'repair.request': {
      const p = e.payload;
      const tokens = p.promptTokens !== undefined ? `, ${p.promptTokens}+${p.completionTokens ?? 0} tokens` : '';
      return `repair requested (${p.target}, ${p.model}${tokens}): ${p.outcome === 'suggested' ? `suggestion ${p.suggestion}` : `${p.outcome}${p.message ? ` — ${oneLine(p.message)}` : ''}`}`;
    }
    case 'repair.accept':
      return `repair ${e.payload.suggestion} accepted${e.payload.edited ? ' (edited)' : ''}: revision ${e.payload.from} -> ${e.payload.to}${note(e.payload.note)}`;
    case 'repair.reject':
      return `repair ${e.payload.suggestion} rejected — ${oneLine(e.payload.reason)}`;
    case 'specs.edit': {
      const p = e.payload;
      const what = p.summary ? oneLine(p.summary) : p.op;
      const deleted = p.deleted && p.deleted.length > 0 ? `; deleted ${p.deleted.join(', ')} in revision ${p.to}` : '';
      return `specs ${what}: revision ${p.from} -> ${p.to}${p.changedSpecs.length > 0 ? ` (changed specs: ${p.changedSpecs.join(', ')})` : ''}${deleted}${note(p.note)}`;
    }
    case 'review.findings': {
      const p = e.payload;
      const cands = p.findings.filter((f) => f.candidate).length;
      const tokens = p.promptTokens !== undefined ? `, ${p.promptTokens}+${p.completionTokens ?? 0} tokens` : '';
      return `review agent on ${p.attempt} (${p.model}, prompt ${p.promptVersion}${tokens}): ${p.findings.length} finding(s), ${cands} candidate(s)${p.dropped.length > 0 ? `, ${p.dropped.length} dropped` : ''}`;
    }
    case 'review.dismiss':
      return `finding ${e.payload.findings} × ${e.payload.spec} dismissed${note(e.payload.note)}`;
    case 'revision':
      return `revision ${e.payload.from} -> ${e.revision}${e.payload.changedSpecs.length > 0 ? ` (changed specs: ${e.payload.changedSpecs.join(', ')})` : ''}${note(e.payload.note)}`;
  }
}

function oneLine(s: string, max = 120): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
