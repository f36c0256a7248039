// The panels' bundles and style sheets, read from the extension's dist/ folder once (again only when a file changed)
// to be carried inline in the page (webviewHtml.ts says why). A file that cannot be inlined, or read, is linked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PageAsset } from './webviewHtml';
import { inlineSafe } from './webviewHtml';

export class WebviewAssets {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; asset: PageAsset | undefined }>();

  /** `toUri` turns a dist-relative file into the webview's URI for it (the fallback). */
  constructor(private readonly distDir: string) {}

  /** The app bundle `name` (e.g. `webview.js`): inline when it can be, else its URI. */
  script(name: string, toUri: (file: string) => string): PageAsset {
    return this.read(name, 'script') ?? { uri: toUri(path.join(this.distDir, name)) };
  }

  /** The style sheets among `names` that exist. */
  styles(names: readonly string[], toUri: (file: string) => string): PageAsset[] {
    const out: PageAsset[] = [];
    for (const name of names) {
      const file = path.join(this.distDir, name);
      if (!fs.existsSync(file)) continue;
      out.push(this.read(name, 'style') ?? { uri: toUri(file) });
    }
    return out;
  }

  private read(name: string, kind: 'script' | 'style'): PageAsset | undefined {
    const file = path.join(this.distDir, name);
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      return undefined;
    }
    const hit = this.cache.get(name);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.asset;
    let asset: PageAsset | undefined;
    try {
      const text = fs.readFileSync(file, 'utf8');
      asset = inlineSafe(text, kind) ? { inline: text } : undefined;
    } catch {
      asset = undefined;
    }
    this.cache.set(name, { mtimeMs: st.mtimeMs, size: st.size, asset });
    return asset;
  }
}
