import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const server = 'http://127.0.0.1:7070';

export default defineConfig({
  plugins: [react()],
  // Every asset URL relative to the page: the same build is served at a host's root by the
  // racelab server and under any sub-path by a static host (npm run site).
  base: './',
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: {
      '/ws': { target: server, ws: true },
      '/api': { target: server },
    },
  },
});
