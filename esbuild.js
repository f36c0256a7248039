// Bundles the extension host code, the CLI and the webview app. `--production` minifies; `--watch` rebuilds.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
// `--only=webview`: the browser bundles alone (the webview tests' build, which runs beside the integration tests: it
// must not rewrite dist/cli.js while they spawn it).
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const watch = process.argv.includes('--watch');

/** Reports build results the way VS Code's problem matchers expect. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Prefer ESM builds: jsonc-parser's UMD build hides its requires from the bundler.
  mainFields: ['module', 'main'],
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  sourcesContent: false,
  logLevel: 'warning',
  // dockerode's optional ssh transport pulls native modules that cannot be bundled; both requires are optional.
  external: ['vscode', 'cpu-features', '*.node'],
  plugins: watch ? [problemMatcher] : [],
};

/** The CLI bundle, the package's bin; the tests rebuild it with these options when a source is newer (test/unit/helpers/cli.ts). */
// The dataset search's worker (src/app/datasetSearch.ts) is built here, beside the CLI; the extension finds it in dist too.
const cli = { ...node, entryPoints: { cli: 'src/cli/main.ts', datasetSearchWorker: 'src/adapters/fs/datasetSearchWorker.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } };

const contexts = [
  { ...node, entryPoints: { extension: 'src/vscode/extension.ts' }, outdir: 'dist' },
  cli,
  {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    sourcemap: !production,
    minify: production,
    sourcesContent: false,
    logLevel: 'warning',
    entryPoints: { webview: 'webview/src/main.ts', stats: 'webview/src/statsMain.ts' },
    outdir: 'dist',
    plugins: watch ? [problemMatcher] : [],
  },
  // The task page's first script: a classic script (run as the page is parsed), its names kept in its own scope.
  {
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    bundle: true,
    sourcemap: false,
    minify: true,
    logLevel: 'warning',
    entryPoints: { firstPaint: 'webview/src/firstPaint.ts' },
    outdir: 'dist',
    plugins: watch ? [problemMatcher] : [],
  },
];

async function main() {
  const fs = require('fs');
  const wanted = contexts.filter((c) => only === undefined || (only === 'webview' && c.platform === 'browser'));
  if (wanted.length === 0) throw new Error(`--only=${only}: no such bundle (--only=webview builds the browser bundles)`);
  const built = await Promise.all(wanted.filter((c) => Object.values(c.entryPoints).every((p) => fs.existsSync(p))).map((c) => esbuild.context(c)));
  if (watch) {
    await Promise.all(built.map((c) => c.watch()));
    return;
  }
  await Promise.all(built.map((c) => c.rebuild()));
  await Promise.all(built.map((c) => c.dispose()));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
  // The panels carry these files inline in their pages (src/vscode/webviewHtml.ts): the same check as inlineSafe, so
  // a bundle that could not be inlined fails the build instead of silently falling back to a linked load.
  const unsafe = { js: /<\/script|<!--|<script/i, css: /<\/style/i };
  for (const f of ['webview.js', 'firstPaint.js', 'stats.js', 'webview.css', 'stats.css']) {
    const file = `dist/${f}`;
    if (fs.existsSync(file) && unsafe[f.split('.').pop()].test(fs.readFileSync(file, 'utf8'))) {
      throw new Error(`${file} holds a sequence that cannot sit inside a <script>/<style> element; the panels inline it`);
    }
  }
}

module.exports = { cli };

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
