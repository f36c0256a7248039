import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { WebviewAssets } from '../../../src/vscode/webviewAssets';
import type { WebviewHtmlOptions } from '../../../src/vscode/webviewHtml';
import { buildWebviewHtml, contentSecurityPolicy, FIRST_MESSAGE_ID, inlineSafe, jsonForScript, localResourceRootPaths, makeNonce } from '../../../src/vscode/webviewHtml';
import { PAGE_BUNDLE_ID } from '../../../src/protocol/messages';
import { tmpDir } from '../helpers/tmp';
import * as fs from 'node:fs';

const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
const opts = (nonce = makeNonce()): WebviewHtmlOptions => ({
  cspSource,
  nonce,
  script: { uri: `${cspSource}/ext/dist/webview.js` },
  styles: [{ uri: `${cspSource}/ext/dist/webview.css` }],
  title: 'Task <b>"x"</b>',
  taskId: 'task-"1"',
});
const inlineOpts = (nonce = makeNonce()): WebviewHtmlOptions => ({
  ...opts(nonce),
  script: { inline: 'document.body.dataset.started = "yes";' },
  styles: [{ inline: 'body { color: red; }' }],
});

function cspOf(html: string): Map<string, string[]> {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m, 'the page has a CSP meta tag');
  const policy = (m[1] as string).replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  return new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k as string, v]));
}

test('nonces are 128 random bits from crypto, base64, different every time', () => {
  const a = makeNonce();
  const b = makeNonce();
  assert.notEqual(a, b);
  assert.equal(Buffer.from(a, 'base64').length, 16);
  const seen = new Set(Array.from({ length: 1000 }, makeNonce));
  assert.equal(seen.size, 1000);
});

test('the CSP denies everything by default and allows scripts only by nonce; no unsafe-inline or eval anywhere', () => {
  const nonce = makeNonce();
  const html = buildWebviewHtml(opts(nonce));
  const csp = cspOf(html);
  assert.deepEqual(csp.get('default-src'), ["'none'"]);
  assert.deepEqual(csp.get('script-src'), [`'nonce-${nonce}'`]);
  assert.deepEqual(csp.get('style-src'), [cspSource, `'nonce-${nonce}'`]);
  assert.deepEqual(csp.get('font-src'), [cspSource]);
  assert.deepEqual(csp.get('img-src'), [cspSource, 'data:']);
  assert.deepEqual(csp.get('frame-src'), ["'none'"]);
  assert.ok(!/unsafe-inline|unsafe-eval|\*/.test(contentSecurityPolicy(cspSource, nonce)));
  for (const [, sources] of csp) for (const s of sources) assert.ok(s === cspSource || s.startsWith("'") || s === 'data:', `unexpected source ${s}`);
});

test('linked: every script and style carries the nonce; there is no inline script or style', () => {
  const nonce = makeNonce();
  const html = buildWebviewHtml(opts(nonce));
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0]?.[1] ?? '', new RegExp(`nonce="${nonce.replace(/[+/=]/g, '\\$&')}"`));
  assert.match(scripts[0]?.[1] ?? '', /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\.js"/);
  assert.equal(scripts[0]?.[2], '', 'no inline script body');
  assert.ok(!/<style\b/.test(html), 'no inline style element');
  assert.ok(!/\sstyle=/.test(html), 'no style attribute');
  assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handler');
  const links = [...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]);
  assert.equal(links.length, 1);
  assert.ok(links[0]?.includes(`nonce="${nonce}"`));
});

test('titles and ids are escaped', () => {
  const html = buildWebviewHtml(opts());
  assert.ok(html.includes('<title>Task &lt;b&gt;&quot;x&quot;&lt;/b&gt;</title>'));
  assert.ok(html.includes('data-task-id="task-&quot;1&quot;"'));
});

test('a weak or malformed nonce is refused', () => {
  assert.throws(() => buildWebviewHtml(opts('abc')));
  assert.throws(() => buildWebviewHtml(opts(`${makeNonce()}" onload="x`)));
});

test('local resources are limited to the extension\'s dist/ and media/', () => {
  const ext = path.resolve('/opt/ext/specweave');
  assert.deepEqual(localResourceRootPaths(ext), [path.join(ext, 'dist'), path.join(ext, 'media')]);
  for (const p of localResourceRootPaths(ext)) assert.ok(p.startsWith(ext + path.sep));
});

test('inline (what the panels use): the bundle and styles sit in the page with the nonce, nothing is loaded to start', () => {
  const nonce = makeNonce();
  const html = buildWebviewHtml(inlineOpts(nonce));
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0]?.[1], ` type="module" nonce="${nonce}"`, 'no src: the code arrives with the page');
  assert.equal(scripts[0]?.[2], 'document.body.dataset.started = "yes";');
  const styles = [...html.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/g)];
  assert.deepEqual(styles.map((m) => [m[1], m[2]]), [[` nonce="${nonce}"`, 'body { color: red; }']]);
  assert.ok(!/<link\b/.test(html));
  assert.ok(!/\sstyle=/.test(html) && !/\son[a-z]+=/i.test(html));
  // The policy is the same strict one: the inline code runs only because it carries this page's nonce.
  assert.deepEqual(cspOf(html).get('script-src'), [`'nonce-${nonce}'`]);
});

test('a text that would end its element or switch the parser is never inlined', () => {
  for (const bad of ['x = "</script><img src=x onerror=alert(1)>"', 'a = "<!--"', 'b = "<SCRIPT>"']) {
    assert.equal(inlineSafe(bad, 'script'), false, bad);
    assert.throws(() => buildWebviewHtml({ ...inlineOpts(), script: { inline: bad } }), /cannot be inlined/);
  }
  assert.equal(inlineSafe('a { content: "</style>" }', 'style'), false);
  assert.equal(inlineSafe('const lt = a < b;', 'script'), true);
});

test('the panels\' assets: the built bundles are inlined; one that cannot be, or is missing, is linked', () => {
  const dist = tmpDir('sw-assets-');
  fs.writeFileSync(path.join(dist, 'webview.js'), 'console.log(1 < 2);');
  fs.writeFileSync(path.join(dist, 'webview.css'), 'body { margin: 0 }');
  fs.writeFileSync(path.join(dist, 'stats.js'), 'const s = "</script>";');
  const assets = new WebviewAssets(dist);
  const toUri = (f: string) => `uri:${path.basename(f)}`;
  assert.deepEqual(assets.script('webview.js', toUri), { inline: 'console.log(1 < 2);' });
  assert.deepEqual(assets.styles(['webview.css', 'missing.css'], toUri), [{ inline: 'body { margin: 0 }' }]);
  assert.deepEqual(assets.script('stats.js', toUri), { uri: 'uri:stats.js' });
  assert.deepEqual(assets.script('nothere.js', toUri), { uri: 'uri:nothere.js' });
  // A rebuilt bundle is read again.
  fs.writeFileSync(path.join(dist, 'webview.js'), 'console.log("rebuilt, longer");');
  assert.deepEqual(assets.script('webview.js', toUri), { inline: 'console.log("rebuilt, longer");' });
});

test('the first message rides in the page as a JSON data block no text of it can end or turn into a script', () => {
  const hostile = '</script><script>alert(1)</script><!-- <script \u2028\u2029 & \\</SCRIPT>';
  const first = { type: 'init', model: { taskId: 'x', title: hostile, nested: [{ text: hostile }] } };
  const html = buildWebviewHtml({ ...inlineOpts(), first });
  const block = new RegExp(`<script type="application/json" id="${FIRST_MESSAGE_ID}">([^]*?)</script>`).exec(html);
  assert.ok(block, 'the page carries the data block');
  const body = block[1] as string;
  assert.doesNotMatch(body, /[<>&\u2028\u2029]/, 'no markup character and no line terminator of the data is left as it was');
  assert.deepEqual(JSON.parse(body), first, 'the data reads back exactly');
  // One data block and one script of ours: the hostile text made no element.
  assert.equal(html.match(/<script/gi)?.length, 2);
  assert.equal(jsonForScript('a\\<b'), '"a\\\\\\u003cb"', 'a backslash before a < stays a backslash');
  assert.equal(JSON.parse(jsonForScript('a\\<b')), 'a\\<b');
});

test('a page without a first message carries no data block', () => {
  assert.ok(!buildWebviewHtml(inlineOpts()).includes(FIRST_MESSAGE_ID));
});

test('with a first script: it runs first with the nonce, and the bundle waits as an inert block for it to start (only with a first message, both inline)', () => {
  const nonce = makeNonce();
  const first = { type: 'init', model: { taskId: 'x' } };
  const html = buildWebviewHtml({ ...inlineOpts(nonce), first, firstScript: { inline: 'window.firstRan = 1;' } });
  const scripts = [...html.matchAll(/<script([^>]*)>([^]*?)<\/script>/g)].map((m) => ({ attrs: (m[1] as string).trim(), body: m[2] as string }));
  assert.deepEqual(
    scripts.map((s) => s.attrs),
    [`type="application/json" id="${FIRST_MESSAGE_ID}"`, `nonce="${nonce}"`, `type="text/plain" id="${PAGE_BUNDLE_ID}"`],
    'the data block, the first script (the one script the browser runs), the bundle as text',
  );
  assert.equal(scripts[1]?.body, 'window.firstRan = 1;');
  assert.equal(scripts[2]?.body, 'document.body.dataset.started = "yes";');
  // Without a first message, or with a bundle that is linked, the bundle runs as ever and no first script is put in.
  for (const o of [{ ...inlineOpts(nonce), firstScript: { inline: 'window.firstRan = 1;' } }, { ...opts(nonce), first, firstScript: { inline: 'window.firstRan = 1;' } }]) {
    const page = buildWebviewHtml(o);
    assert.ok(!page.includes('firstRan') && !page.includes(PAGE_BUNDLE_ID), 'no first script');
    assert.match(page, /<script type="module" nonce="/);
  }
  assert.throws(() => buildWebviewHtml({ ...inlineOpts(nonce), first, firstScript: { inline: 'x = "</script><script>alert(1)//";' } }), /first script holds/);
});
