// Builds the app (root src/app) and the service worker (sw/sw.ts, injectManifest) into dist/ (or DIST_DIR, so
// several engineers on one machine can each build and run the end-to-end tests on their own copy).
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';

const here = import.meta.dirname;

export default defineConfig({
  root: path.join(here, 'src/app'),
  publicDir: path.join(here, 'public'),
  build: {
    outDir: path.resolve(here, process.env.DIST_DIR || 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
  server: { proxy: {} },
  resolve: {
    // The browser bundles run under a Content-Security-Policy without 'unsafe-eval': `zod` is Zod
    // loaded after its eval probe is turned off (src/app/zod-browser.ts).
    alias: [{ find: /^zod$/, replacement: path.join(here, 'src/app/zod-browser.ts') }],
  },
  plugins: [
    // The router plugin must come before react() (STACK gotcha 4).
    tanstackRouter({
      target: 'react',
      routesDirectory: path.join(here, 'src/app/routes'),
      generatedRouteTree: path.join(here, 'src/app/routeTree.gen.ts'),
      autoCodeSplitting: true,
    }),
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: path.join(here, 'sw'),
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      // The app shell and every built script are precached, each route's lazily loaded code included, so
      // any page opens offline once the worker is in control (src/app/lib/service-worker.ts waits for
      // that before saying the device is ready). `webmanifest` stays out of globPatterns (gotcha 5).
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      },
      manifest: {
        name: 'Tessera',
        short_name: 'Tessera',
        description: 'Slide management for pathology labs',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        background_color: '#f8f9fa',
        theme_color: '#1c4e80',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512-maskable.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
});
