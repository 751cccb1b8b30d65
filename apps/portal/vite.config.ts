import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
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
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'vendor-react';
          if (id.includes('node_modules/react-router')) return 'vendor-router';
          if (/node_modules\/(i18next|react-i18next)\//.test(id)) return 'vendor-i18n';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/oidc': 'http://localhost:3000' },
  },
});
