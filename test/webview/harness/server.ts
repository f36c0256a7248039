// A tiny static server for the webview harness: the page the extension itself serves (built by the production
// buildWebviewHtml: a fresh nonce per load, the production CSP), with two additions a real workbench makes in its
// own way: VS Code's theme variables and body class, and the stand-in for acquireVsCodeApi (the fake host, bundled on
// start). It also serves the built dist/webview.js and dist/webview.css, and records every path asked for, so a test
// can see that no data-driven request (an <img src=x>) ever left the page.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { build } from 'esbuild';
import { buildWebviewHtml, makeNonce } from '../../../src/vscode/webviewHtml';
import { fixtureByName } from './fixtures';

export const projectRoot = path.resolve(__dirname, '../../..');
const harnessDir = __dirname;

export interface HarnessServer {
  url: string;
  /** Paths requested so far (with query strings). */
  requests: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.map': 'application/json' };

/** `dist`: the folder holding the bundles served (default: the project's `dist/`; the benchmark serves an older build). */
export async function startHarness(o: { dist?: string } = {}): Promise<HarnessServer> {
  const distDir = o.dist ?? path.join(projectRoot, 'dist');
  for (const f of ['webview.js', 'webview.css']) {
    if (!existsSync(path.join(distDir, f))) throw new Error(`${f} is missing in ${distDir}: run \`node esbuild.js\` (npm run test:webview does)`);
  }
  const fake = await build({
    entryPoints: [path.join(harnessDir, 'fakeHost.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  const fakeHostJs = fake.outputFiles[0]!.contents;
  // The statistics and adjudication panels (dist/stats.js) get their own stand-in host.
  const statsFake = await build({ entryPoints: [path.join(harnessDir, 'statsHost.ts')], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'warning' });
  const statsHostJs = statsFake.outputFiles[0]!.contents;
  const requests: string[] = [];
  let origin = '';

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, type: string, body: string | Uint8Array) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/stats') {
      const nonce = makeNonce();
      const theme = ['dark', 'light', 'hc'].includes(url.searchParams.get('theme') ?? '') ? url.searchParams.get('theme')! : 'dark';
      const bodyClass = theme === 'light' ? 'vscode-light' : theme === 'hc' ? 'vscode-high-contrast' : 'vscode-dark';
      const html = buildWebviewHtml({
        cspSource: origin,
        nonce,
        // Inline, as the extension serves it (the theme sheet is the workbench's part, linked).
        script: { inline: readFileSync(path.join(distDir, 'stats.js'), 'utf8') },
        styles: [{ uri: `/harness/theme-${theme}.css` }, { inline: readFileSync(path.join(distDir, 'stats.css'), 'utf8') }],
        title: 'SpecWeave curation panel (harness)',
        taskId: url.searchParams.get('view') === 'adjudication' ? 'adjudication' : 'stats',
      });
      send(200, 'text/html; charset=utf-8', harnessPage(html, nonce, bodyClass, '/harness/statsHost.js'));
      return;
    }
    if (url.pathname === '/') {
      const nonce = makeNonce();
      const theme = ['dark', 'light', 'hc'].includes(url.searchParams.get('theme') ?? '') ? url.searchParams.get('theme')! : 'dark';
      const bodyClass = theme === 'light' ? 'vscode-light' : theme === 'hc' ? 'vscode-high-contrast' : 'vscode-dark';
      const fixture = url.searchParams.get('fixture') ?? 'standard';
      // `first=1`: the page carries its first model, as the extension's pages do (the fake host still answers).
      // `first=broken`: a first model missing a field the page's first script reads (the app's own reading fills it in).
      const firstParam = url.searchParams.get('first');
      const first = firstParam === '1' || firstParam === 'broken' ? fixtureByName(fixture, url.searchParams).model : undefined;
      if (first && firstParam === 'broken') delete (first as { notices?: unknown }).notices;
      const html = buildWebviewHtml({
        cspSource: origin,
        nonce,
        script: { inline: readFileSync(path.join(distDir, 'webview.js'), 'utf8') },
        styles: [{ uri: `/harness/theme-${theme}.css` }, { inline: readFileSync(path.join(distDir, 'webview.css'), 'utf8') }],
        title: 'SpecWeave task view (harness)',
        taskId: first?.taskId ?? fixture,
        ...(first ? { first: { type: 'init', model: first } } : {}),
        // With its first model, the page's first script as the extension's pages have it (an older build may have none).
        ...(first && existsSync(path.join(distDir, 'firstPaint.js')) ? { firstScript: { inline: readFileSync(path.join(distDir, 'firstPaint.js'), 'utf8') } } : {}),
        // `region=…&tab=…`: a popped-out region's page, as TaskPanels makes it.
        ...(url.searchParams.get('region') ? { region: url.searchParams.get('region')! } : {}),
        ...(url.searchParams.get('tab') ? { tab: url.searchParams.get('tab')! } : {}),
      });
      send(200, 'text/html; charset=utf-8', harnessPage(html, nonce, bodyClass));
      return;
    }
    // Chromium asks for it on its own; it is not something the page's content requested.
    if (url.pathname === '/favicon.ico') return send(204, 'image/x-icon', '');
    if (url.pathname === '/harness/fakeHost.js') return send(200, TYPES['.js']!, fakeHostJs);
    if (url.pathname === '/harness/statsHost.js') return send(200, TYPES['.js']!, statsHostJs);
    const theme = /^\/harness\/theme-(dark|light|hc)\.css$/.exec(url.pathname);
    if (theme) return send(200, TYPES['.css']!, readFileSync(path.join(harnessDir, `theme-${theme[1]}.css`)));
    const dist = /^\/dist\/((?:webview|stats)\.(?:js|css)(?:\.map)?)$/.exec(url.pathname);
    if (dist) return send(200, TYPES[path.extname(dist[1]!)]!, readFileSync(path.join(distDir, dist[1]!)));
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The production page plus the workbench's part: the body's theme class and the fake host before the app. */
function harnessPage(html: string, nonce: string, bodyClass: string, hostScript = '/harness/fakeHost.js'): string {
  // The fake host goes before the page's first script: the app bundle itself, or the first script that starts it.
  const app = html.includes('<script type="module"') ? '<script type="module"' : `<script nonce="${nonce}">`;
  if (!html.includes(app) || !html.includes('<body ')) throw new Error('buildWebviewHtml changed shape: update the harness');
  return html
    .replace('<body ', `<body class="${bodyClass}" `)
    .replace(app, `<script nonce="${nonce}" src="${hostScript}"></script>\n  ${app}`);
}
