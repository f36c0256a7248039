import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildWebviewHtml, contentSecurityPolicy, localResourceRootPaths, makeNonce } from '../../../src/vscode/webviewHtml';

const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
const opts = (nonce = makeNonce()) => ({
  cspSource,
  nonce,
  scriptUri: `${cspSource}/ext/dist/webview.js`,
  styleUris: [`${cspSource}/ext/dist/webview.css`],
  title: 'Task <b>"x"</b>',
  taskId: 'task-"1"',
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

test('every script and style carries the nonce; there is no inline script or style', () => {
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
