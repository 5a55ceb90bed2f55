import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const server = 'http://127.0.0.1:7070';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: {
      '/ws': { target: server, ws: true },
      '/api': { target: server },
    },
  },
});
