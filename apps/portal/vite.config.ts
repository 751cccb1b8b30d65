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
    // The login route must stay small: report anything larger.
    chunkSizeWarningLimit: 220,
    rollupOptions: {
      output: {
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
