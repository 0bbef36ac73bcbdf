import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * @monaco-editor/loader ships a default CDN address for Monaco. We hand it the
 * bundled Monaco (`loader.config({ monaco })`), so the address is dead code,
 * but it would still sit in the bundle and the product must not name any CDN.
 * Blank it before anything else sees the module.
 */
function blankMonacoLoaderCdn(): Plugin {
  return {
    name: 'compaction-playground:blank-monaco-loader-cdn',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('@monaco-editor/loader')) return null;
      const blanked = code.replace(
        /https?:\/\/cdn\.jsdelivr\.net\/npm\/monaco-editor@[^'"`]*/g,
        '',
      );
      return blanked === code ? null : { code: blanked, map: null };
    },
  };
}

/**
 * Monaco 0.57's diff editor has a race (microsoft/vscode#315291, fixed there
 * after this release): when a model changes while a diff is being computed,
 * it normalises the stale result against the new text and throws "Illegal
 * value for lineNumber" into the console. The transcript diff changes both
 * models on every result, so on a busy machine this happened. The patch drops
 * such a stale result: the change has already scheduled a new diff. The
 * production build fails when the patch did not apply (the file or the line
 * is gone), so an upgrade cannot skip it unnoticed: remove the patch once
 * Monaco has the fix. The dev server's pre-bundling gets the same patch.
 */
function skipStaleMonacoDiffs(options: { requireApplied: boolean }) {
  const line = 'result = normalizeDocumentDiff(result, model.original, model.modified);';
  const patched = `if (originalTextEditInfos.length > 0 || modifiedTextEditInfos.length > 0) { return; } ${line}`;
  let applied = false;
  return {
    name: 'compaction-playground:skip-stale-monaco-diffs',
    transform(code: string, id: string) {
      if (!id.includes('diffEditorViewModel.js') || !code.includes(line)) return null;
      applied = true;
      return { code: code.replace(line, patched), map: null };
    },
    buildEnd(error?: Error) {
      if (options.requireApplied && !error && !applied) {
        throw new Error(
          "skipStaleMonacoDiffs (vite.config.ts) found nothing to patch in Monaco's diffEditorViewModel.js: check whether the race is fixed upstream, then remove or update the patch.",
        );
      }
    },
  };
}

/**
 * The Content-Security-Policy of the built page. Only in the build: the dev
 * server injects an inline script (React Refresh) and talks over a WebSocket.
 * Monaco sets inline styles, so styles need 'unsafe-inline'; everything else
 * (scripts, workers, fetches) stays on our own origin.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'compaction-playground:csp',
    apply: 'build',
    transformIndexHtml() {
      return [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
          injectTo: 'head-prepend',
        },
      ];
    },
  };
}

export default defineConfig({
  plugins: [
    blankMonacoLoaderCdn(),
    { ...skipStaleMonacoDiffs({ requireApplied: true }), enforce: 'pre', apply: 'build' },
    react(),
    contentSecurityPolicy(),
  ],
  worker: { format: 'es' },
  optimizeDeps: {
    // Without these the dev server discovers them on first load, re-bundles
    // and reloads the page.
    include: ['gpt-tokenizer', 'smol-toml'],
    rolldownOptions: { plugins: [skipStaleMonacoDiffs({ requireApplied: false })] },
  },
  build: {
    // Monaco alone is several MB; the warning says nothing we do not know.
    chunkSizeWarningLimit: 8000,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
