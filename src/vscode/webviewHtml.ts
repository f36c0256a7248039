// The panels' HTML shell: a strict Content-Security-Policy, one nonce per page load from node:crypto, and only the
// extension's own bundle and styles, carried inline with the nonce (see PageAsset). No VS Code import, so it is
// unit-tested as plain text.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { FIRST_MESSAGE_ID, PAGE_BUNDLE_ID } from '../protocol/messages';

/**
 * A script or style sheet of the page: its text, put into the page itself (with the nonce), or its `asWebviewUri`.
 * Inline is what the panels use: a page whose code arrives with its HTML needs no resource load through VS Code's
 * webview service worker to start, and that load can time out (HTTP 408) and leave the page blank for good.
 */
export type PageAsset = { inline: string } | { uri: string };

export interface WebviewHtmlOptions {
  /** `webview.cspSource`: the origin the webview may load extension resources from. */
  cspSource: string;
  nonce: string;
  /** The app's bundle (dist/webview.js or dist/stats.js). */
  script: PageAsset;
  /**
   * The task page's first script (dist/firstPaint.js), with `first`: it runs as the page is parsed and paints the first
   * region from `first`, while the bundle waits in the page as an inert block that this script starts once the browser
   * has painted (both inline; otherwise the bundle runs as usual).
   */
  firstScript?: PageAsset;
  /** The style sheets (dist/*.css) that exist. */
  styles?: readonly PageAsset[];
  title: string;
  /** The task shown, for a restored page to know what to ask for before its first message. */
  taskId: string;
  /**
   * The page's first message (the task view's `init`), carried in the page as an inert JSON data block: the page
   * paints the task as soon as its script runs, without waiting for its `ready` to reach the host and the host's
   * `init` to come back; the host's `init` then brings what changed meanwhile.
   */
  first?: unknown;
  /** A region shown alone in a tab of its own (a popped-out region), and the specs area's tab it opens on. */
  region?: string;
  tab?: string;
}

/** The id of the JSON data block holding the page's first message. */
export { FIRST_MESSAGE_ID };

/**
 * JSON that can sit inside a `<script type="application/json">` element whatever the strings in it hold: every
 * `<`, `>` and `&` (and the two JavaScript line terminators) as a `\u` escape, which JSON.parse reads back as the
 * same characters, so no `</script>` or `<!--` of a dataset's text can end the element or open a script.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Whether a text can sit inside a `<script>` (or `<style>`) element as it is: no sequence that would end the element
 * or switch the HTML parser's script states. esbuild escapes these in its output; a text that still holds one is
 * linked instead of inlined.
 */
export function inlineSafe(text: string, kind: 'script' | 'style'): boolean {
  return kind === 'script' ? !/<\/script|<!--|<script/i.test(text) : !/<\/style/i.test(text);
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
  const styles = (o.styles ?? [])
    .map((a) => {
      if ('uri' in a) return `  <link rel="stylesheet" nonce="${o.nonce}" href="${escapeHtml(a.uri)}">`;
      if (!inlineSafe(a.inline, 'style')) throw new Error('a style sheet holds </style and cannot be inlined');
      return `  <style nonce="${o.nonce}">${a.inline}</style>`;
    })
    .join('\n');
  let script: string;
  if ('uri' in o.script) script = `<script type="module" nonce="${o.nonce}" src="${escapeHtml(o.script.uri)}"></script>`;
  else {
    if (!inlineSafe(o.script.inline, 'script')) throw new Error('the script holds </script, <script or <!-- and cannot be inlined');
    const first = o.first !== undefined && o.firstScript && 'inline' in o.firstScript ? o.firstScript.inline : undefined;
    if (first !== undefined && !inlineSafe(first, 'script')) throw new Error('the first script holds </script, <script or <!-- and cannot be inlined');
    // With a first script: the bundle as text the HTML parser does not run (a script element of a type no browser
    // runs), started by the first script with the nonce.
    script =
      first !== undefined
        ? `<script nonce="${o.nonce}">${first}</script>\n  <script type="text/plain" id="${PAGE_BUNDLE_ID}">${o.script.inline}</script>`
        : `<script type="module" nonce="${o.nonce}">${o.script.inline}</script>`;
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.cspSource, o.nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <title>${escapeHtml(o.title)}</title>
${styles}
</head>
<body data-task-id="${escapeHtml(o.taskId)}"${o.region ? ` data-region="${escapeHtml(o.region)}"` : ''}${o.tab ? ` data-tab="${escapeHtml(o.tab)}"` : ''}>
  <div id="app"></div>
${o.first === undefined ? '' : `  <script type="application/json" id="${FIRST_MESSAGE_ID}">${jsonForScript(o.first)}</script>\n`}  ${script}
</body>
</html>
`;
}
