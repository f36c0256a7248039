// The task panel's HTML shell: a strict Content-Security-Policy, one nonce per page load from node:crypto, and only
// the extension's own bundle and styles. No VS Code import, so it is unit-tested as plain text.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

export interface WebviewHtmlOptions {
  /** `webview.cspSource`: the origin the webview may load extension resources from. */
  cspSource: string;
  nonce: string;
  /** `asWebviewUri` of dist/webview.js. */
  scriptUri: string;
  /** `asWebviewUri` of the style sheets (dist/webview.css, media/*.css) that exist. */
  styleUris?: readonly string[];
  title: string;
  /** The task shown, for a restored page to know what to ask for before its first message. */
  taskId: string;
}

/** 128 random bits, base64: a fresh one for every HTML document the panel loads. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * Nothing by default; scripts only with the nonce; styles from the extension or with the nonce (no inline style
 * attributes in markup); images and fonts only from the extension (and data: images for icons in components).
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
  ].join('; ');
}

/** The only folders the webview may load from: the bundles and the media of the extension itself. */
export function localResourceRootPaths(extensionPath: string): string[] {
  return [path.join(extensionPath, 'dist'), path.join(extensionPath, 'media')];
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export function buildWebviewHtml(o: WebviewHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(o.nonce)) throw new Error('the nonce must be base64 of at least 96 random bits');
  const styles = (o.styleUris ?? []).map((u) => `  <link rel="stylesheet" nonce="${o.nonce}" href="${escapeHtml(u)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.cspSource, o.nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <title>${escapeHtml(o.title)}</title>
${styles}
</head>
<body data-task-id="${escapeHtml(o.taskId)}">
  <div id="app"></div>
  <script type="module" nonce="${o.nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>
`;
}
