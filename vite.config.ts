import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { embedFirstFigures } from './tools/build/first-figures-plugin.ts';

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

/**
 * Offline for real: a web app manifest, and a Workbox service worker that
 * precaches every built asset, so the page opens with the network off once it
 * has been opened. `prompt`: a new build waits until the person chooses to
 * reload (src/ui/feedback/UpdateNotice.tsx registers it and says so), never
 * swapping code under an open session. Everything comes from our origin.
 */
const offline = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  includeAssets: ['icons/*.png'],
  manifest: {
    name: 'Compaction Playground',
    short_name: 'Compaction',
    description:
      "See per tool what JP's compaction hints save and exactly what the model sees. Works offline.",
    start_url: '.',
    scope: '.',
    display: 'standalone',
    background_color: '#1f3a5f',
    theme_color: '#1f3a5f',
    icons: [
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,png,svg,ttf,woff2,webmanifest}'],
    // Monaco's chunk and the tokenizer's rank tables are several MB each.
    maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
    navigateFallback: 'index.html',
    cleanupOutdatedCaches: true,
    // The first visit's page is controlled too, so Reload on a later update
    // hands it to the new version (skipWaiting stays behind the prompt).
    clientsClaim: true,
  },
});

/**
 * The core is pure (docs/house.md): importing one of its modules does
 * nothing but define things. Telling the bundler so lets it drop a core
 * module none of whose exports are used, and with it the modules only that
 * one imports: without it, the page's entry carried every transcript
 * importer because a pane used one small helper of a module that stands on
 * them. The same holds in the workers.
 */
const PURE_CORE = {
  treeshake: { moduleSideEffects: [{ test: /\/src\/core\/.*\.ts$/, sideEffects: false }] },
};

export default defineConfig({
  plugins: [
    blankMonacoLoaderCdn(),
    { ...skipStaleMonacoDiffs({ requireApplied: true }), enforce: 'pre', apply: 'build' },
    react(),
    contentSecurityPolicy(),
    embedFirstFigures(),
    offline,
  ],
  worker: { format: 'es', rolldownOptions: PURE_CORE },
  optimizeDeps: {
    // Without these the dev server discovers them on first load, re-bundles
    // and reloads the page.
    include: ['gpt-tokenizer', 'smol-toml'],
    rolldownOptions: { plugins: [skipStaleMonacoDiffs({ requireApplied: false })] },
  },
  build: {
    // Monaco alone is several MB; the warning says nothing we do not know.
    chunkSizeWarningLimit: 8000,
    rolldownOptions: PURE_CORE,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
