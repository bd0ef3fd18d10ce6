import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // `npm run dev` serves the app and forwards the API and the live channel to a running gateway (npm start).
  server: { proxy: { '/api': 'http://localhost:8080', '/ws': { target: 'ws://localhost:8080', ws: true } } },
  build: {
    rolldownOptions: {
      output: {
        // Libraries in their own chunks, so an app update does not make browsers download them again.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 3 },
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion|@babel|@popperjs|react-transition-group|react-is|stylis|clsx|prop-types|hoist-non-react-statics)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'components',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup.ts'],
          // Above the 5 s the page-level waits allow (src/testing/setup.ts), so a slow wait fails as itself.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          // The app as a new user starts it, driven in real headless Chromium.
          name: 'browser',
          environment: 'node',
          include: ['e2e/**/*.e2e.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
