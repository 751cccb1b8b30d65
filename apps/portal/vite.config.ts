import { precompressAssets } from '@keycard/web/vite/precompress';
import { defineConfig } from 'vite';

/**
 * The portal runs on Preact through its compatibility layer (docs/architecture.md): the
 * source keeps React's API and types, and only this build resolves React to Preact, whose
 * runtime is an eighth of React's weight on the login route (issue 11's time to interactive).
 */
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];

export default defineConfig({
  plugins: [precompressAssets()],
  resolve: { alias: preactCompat },
  // JSX compiles to React's automatic runtime, which the alias turns into Preact's. (No React
  // plugin: its Fast Refresh cannot redraw Preact components, so the dev server reloads instead.)
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // No modulepreload polyfill (0.4 kB of the login route): every browser the es2022 target
    // runs on, but Firefox before 115 and Safari before 17, preloads modules itself, and there
    // the vendor chunk still loads, only after the entry instead of beside it.
    modulePreload: {
      polyfill: false,
      // The entry lists, for each lazy screen, the files to fetch beside it (its own imports): the
      // Preact chunk is never one of them, as the entry imported it before any screen loads.
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'html' ? deps : deps.filter((dep) => !/\/vendor-preact-[^/]+\.js$/.test(dep)),
    },
    // The login route must stay small: report anything larger.
    chunkSizeWarningLimit: 220,
    rollupOptions: {
      output: {
        // Lazy chunks by their hash alone: the entry names each one (its imports and the list of
        // files to fetch beside it), and the names' words were a quarter of that list's weight.
        chunkFileNames: (chunk) =>
          chunk.name === 'vendor-preact' ? 'assets/[name]-[hash].js' : 'assets/[hash].js',
        // Libraries change far less often than our code: their own chunks stay cached.
        manualChunks(id) {
          if (/node_modules\/preact\//.test(id)) return 'vendor-preact';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/oidc': 'http://localhost:3000' },
  },
});
