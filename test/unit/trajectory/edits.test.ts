import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  dropFailedEdits,
  openFileFromObservation,
  shellEdits,
  sweAgentActionEdits,
  toolCallEdits,
  toolCallSummary,
} from '../../../src/core/trajectory/edits';

const paths = (edits: Array<{ path: string; via: string }>): string[] => edits.map((e) => `${e.via}:${e.path}`);

test('shell: sed -i and perl -i edit their file operands, not their scripts', () => {
  assert.deepEqual(paths(shellEdits("sed -i 's/a/b/' django/template/engine.py")), ['sed -i:django/template/engine.py']);
  assert.deepEqual(paths(shellEdits("sed -i.bak -e 's/a/b/' -e 's/c/d/' a.py b.py")), ['sed -i:a.py', 'sed -i:b.py']);
  assert.deepEqual(paths(shellEdits("sed -i '' 's/a/b/' mac.py")), ['sed -i:mac.py']);
  assert.deepEqual(paths(shellEdits('sed --in-place "s/x/y/g" src/x.c && nl -ba src/x.c | sed -n \'1,20p\'')), ['sed -i:src/x.c']);
  assert.deepEqual(paths(shellEdits("perl -pi -e 's/foo/bar/' lib/a.pl")), ['perl -i:lib/a.pl']);
  assert.deepEqual(shellEdits("sed -n '30,60p' django/template/base.py"), []);
});

test('shell: redirects of content commands, heredocs and tee write files; other redirects do not count', () => {
  assert.deepEqual(paths(shellEdits("cat <<'EOF' > reproduce.py\nimport os\nprint(1) > x.py\nEOF\npython3 reproduce.py")), ['redirect:reproduce.py']);
  assert.deepEqual(paths(shellEdits("cat > t.py << 'PY'\nEOF > no.py\nPY")), ['redirect:t.py']);
  assert.deepEqual(paths(shellEdits("printf 'Hello, world!\\n' > hello.txt")), ['redirect:hello.txt']);
  assert.deepEqual(paths(shellEdits('echo "x = 1" >> "my file.py"; echo done')), ['redirect:my file.py']);
  assert.deepEqual(paths(shellEdits('echo hi | tee -a notes.md out.log')), ['tee:notes.md', 'tee:out.log']);
  assert.deepEqual(shellEdits('python run_tests.py > /tmp/log.txt 2>&1'), []);
  assert.deepEqual(shellEdits('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached'), []);
  assert.deepEqual(shellEdits('cat file.py 2> err.txt'), []);
  assert.deepEqual(shellEdits('echo x > /dev/null'), []);
  assert.deepEqual(shellEdits('cat <<< "here string" > /dev/stderr'), []);
});

test('tool calls: editor commands other than view, Claude Code file tools, shell tools, the windowed editor', () => {
  assert.deepEqual(paths(toolCallEdits('str_replace_editor', '{"command":"create","path":"/app/hello.txt","file_text":"x"}')), ['str_replace_editor create:/app/hello.txt']);
  assert.deepEqual(toolCallEdits('str_replace_editor', { command: 'view', path: '/app/hello.txt' }), []);
  assert.deepEqual(paths(toolCallEdits('Edit', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' })), ['Edit:/w/a.ts']);
  assert.deepEqual(paths(toolCallEdits('MultiEdit', { file_path: '/w/a.ts', edits: [] })), ['MultiEdit:/w/a.ts']);
  assert.deepEqual(paths(toolCallEdits('Write', { file_path: '/w/new.ts', content: '' })), ['Write:/w/new.ts']);
  assert.deepEqual(paths(toolCallEdits('Bash', { command: "sed -i 's/a/b/' x.py" })), ['sed -i:x.py']);
  assert.deepEqual(paths(toolCallEdits('execute_bash', '{"command": "cat > a.c <<EOF\\nint x;\\nEOF"}')), ['redirect:a.c']);
  assert.deepEqual(paths(toolCallEdits('edit', { search: 'a', replace: 'b' }, { openFile: '/repo/x.py' })), ['edit:/repo/x.py']);
  assert.deepEqual(toolCallEdits('edit', { search: 'a', replace: 'b' }), [], 'no open file, no edit');
  assert.deepEqual(toolCallEdits('Read', { file_path: '/w/a.ts' }), []);
  assert.deepEqual(toolCallEdits('find_file', '{"file_name":"x.py"}'), []);
});

test('SWE-agent text actions: windowed edit on the open file, create, editor subcommands, else shell', () => {
  assert.deepEqual(paths(sweAgentActionEdits('edit 15:15\n    x = abs(y)\nend_of_edit\n', { openFile: '/r/main.py' })), ['edit:/r/main.py']);
  assert.deepEqual(paths(sweAgentActionEdits('create tests/test_x.py\n')), ['create:tests/test_x.py']);
  assert.deepEqual(paths(sweAgentActionEdits('str_replace_editor str_replace /r/a.py --old_str x --new_str y')), ['str_replace_editor str_replace:/r/a.py']);
  assert.deepEqual(sweAgentActionEdits('str_replace_editor view /r/a.py'), []);
  assert.deepEqual(paths(sweAgentActionEdits("sed -i 's/a/b/' a.py")), ['sed -i:a.py']);
  assert.deepEqual(sweAgentActionEdits('open main.py'), []);
});

test('the open file comes from the last state line, else from the editor window header', () => {
  assert.equal(openFileFromObservation('out\n(Open file: /r/a.py)\n(Current directory: /r)\nbash-$'), '/r/a.py');
  assert.equal(openFileFromObservation('(Open file: /r/old.py)\n...\n(Open file: n/a)\n'), undefined);
  assert.equal(openFileFromObservation('[File: /r/main.py (23 lines total)]\n1:import x'), '/r/main.py');
  assert.equal(openFileFromObservation('no state here'), undefined);
});

test('failed editor edits are dropped; shell edits stay; with several calls only the failed one goes', () => {
  const step = { edits: [{ path: '/a', via: 'str_replace_editor str_replace' }, { path: '/b', via: 'sed -i' }] };
  dropFailedEdits(step, 'The file /a has been edited.');
  assert.equal(step.edits.length, 2);
  dropFailedEdits(step, 'No replacement was performed, old_str `x` did not appear verbatim in /a.');
  assert.deepEqual(paths(step.edits), ['sed -i:/b']);
  const two = { edits: [{ path: '/x', via: 'Write' }, { path: '/y', via: 'Write' }] };
  dropFailedEdits(two, 'EACCES', true, [two.edits[0]!]);
  assert.deepEqual(paths(two.edits), ['Write:/y']);
  const one: { edits?: Array<{ path: string; via: string }> } = { edits: [{ path: '/x', via: 'Edit' }] };
  dropFailedEdits(one, '<tool_use_error>String to replace not found</tool_use_error>');
  assert.equal(one.edits, undefined);
});

test('a tool call is summarized as its command line or its tool and file', () => {
  assert.equal(toolCallSummary('bash', '{"command":"ls -la"}'), 'ls -la');
  assert.equal(toolCallSummary('str_replace_editor', { command: 'create', path: '/app/x' }), 'str_replace_editor create /app/x');
  assert.equal(toolCallSummary('Write', { file_path: '/w/a', content: 'x' }), 'Write /w/a');
  assert.equal(toolCallSummary('Grep', { pattern: 'TODO' }), 'Grep TODO');
  assert.equal(toolCallSummary('finish', { message: 'done' }), 'finish {"message":"done"}');
});
