import { precompressAssets } from '@keycard/web/vite/precompress';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The console is served by the server on the admin host under /console/ (docs/console.md). */
export default defineConfig({
  base: '/console/',
  plugins: [react(), precompressAssets()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'vendor-react';
          if (/node_modules\/zod\//.test(id)) return 'vendor-zod';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: { '/admin': 'http://admin.localhost:3000', '/oidc': 'http://admin.localhost:3000' },
  },
});
