// Per-test statuses from a JUnit XML report. A small scanner rather than a DOM: reports can be large, and only
// <testcase> elements and their <failure>/<error>/<skipped> children matter. CDATA and comments are skipped whole,
// so test output that contains XML-looking text cannot forge a result.
import type { TestStatus } from '../model';
import { record } from './parsePytest';

export interface JunitParse {
  tests: Record<string, TestStatus>;
  /** Set when the document could not be read to its end; what was read before is kept. */
  error?: string;
}

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

function parseAttributes(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([^\s=/]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out[m[1] as string] = decodeEntities(m[3] ?? m[4] ?? '');
  return out;
}

/** The name a test case is known by: a pytest node id when the report carries `file`, else `classname.name`. */
export function junitTestName(attrs: Record<string, string>): string {
  const name = attrs.name ?? '';
  const classname = attrs.classname ?? '';
  const file = attrs.file;
  if (file && file.endsWith('.py')) {
    const modulePath = file.slice(0, -3).replace(/[\\/]/g, '.');
    if (classname === modulePath) return `${file}::${name}`;
    if (classname.startsWith(`${modulePath}.`)) {
      return `${file}::${classname.slice(modulePath.length + 1).split('.').join('::')}::${name}`;
    }
  }
  return classname ? `${classname}.${name}` : name;
}

export function parseJunit(xml: string): JunitParse {
  const tests: Record<string, TestStatus> = {};
  let current: { name: string; status: TestStatus } | undefined;
  let i = 0;
  const finish = () => {
    if (current) record(tests, current.name, current.status);
    current = undefined;
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) return { tests, error: 'unterminated comment' };
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      if (end < 0) return { tests, error: 'unterminated CDATA section' };
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<?', lt) || xml.startsWith('<!', lt)) {
      const end = xml.indexOf('>', lt);
      if (end < 0) return { tests, error: 'unterminated declaration' };
      i = end + 1;
      continue;
    }
    // A tag: find its end, skipping '>' inside quoted attribute values.
    let j = lt + 1;
    let quote: string | undefined;
    for (; j < xml.length; j++) {
      const c = xml[j];
      if (quote) {
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') break;
    }
    if (j >= xml.length) return { tests, error: 'unterminated tag' };
    const body = xml.slice(lt + 1, j);
    i = j + 1;
    if (body.startsWith('/')) {
      if (body.slice(1).trim() === 'testcase') finish();
      continue;
    }
    const selfClosing = body.endsWith('/');
    const nameEnd = body.search(/[\s/]|$/);
    const tag = body.slice(0, nameEnd);
    if (tag === 'testcase') {
      finish();
      current = { name: junitTestName(parseAttributes(body.slice(nameEnd))), status: 'PASSED' };
      if (selfClosing) finish();
    } else if (current && (tag === 'failure' || tag === 'error')) {
      current.status = tag === 'failure' ? 'FAILED' : 'ERROR';
    } else if (current && tag === 'skipped') {
      const attrs = parseAttributes(body.slice(nameEnd));
      // pytest writes xfail as <skipped type="pytest.xfail">.
      const xfail = (attrs.type ?? '').includes('xfail');
      if (current.status === 'PASSED') current.status = xfail ? 'XFAIL' : 'SKIPPED';
    }
  }
  if (current) return { tests, error: 'the report ended inside a <testcase>' };
  return { tests };
}
