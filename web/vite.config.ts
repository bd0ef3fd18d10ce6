import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * MUI X Charts: with what only it uses (its vendored d3, gestures, @base-ui/utils), about 300 KB minified that only
 * the admin page's and the analytics page's charts need (loaded there with React.lazy, src/app/routes/admin.tsx and
 * analytics.tsx). Those dependencies join its
 * chunk by themselves: a group takes its modules' dependencies that no earlier group (higher priority) has taken.
 */
const CHARTS = /node_modules[\\/]@mui[\\/]x-/;

/**
 * Fails the build when the charts chunk is loaded up front: reached from the entry by static imports, which
 * index.html also modulepreloads (a static import of @mui/x-charts, or of one of its dependencies, outside the lazy
 * admin charts would do it).
 */
function chartsLoadedOnlyWhenUsed(): Plugin {
  return {
    name: 'puente:charts-loaded-only-when-used',
    apply: 'build',
    generateBundle(_, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const upFront = new Set<string>();
      const visit = (fileName: string) => {
        if (upFront.has(fileName)) return;
        upFront.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const charts = [...upFront].filter((fileName) => chunks.get(fileName)?.name === 'charts');
      if (charts.length > 0) this.error(`${charts.join(', ')} is loaded up front by the entry's static imports: import the charts lazily`);
    },
  };
}

export default defineConfig({
  plugins: [react(), chartsLoadedOnlyWhenUsed()],
  // `npm run dev` serves the app and forwards the API and the live channel to a running gateway (npm start).
  server: { proxy: { '/api': 'http://localhost:8080', '/ws': { target: 'ws://localhost:8080', ws: true } } },
  build: {
    rolldownOptions: {
      output: {
        // Libraries in their own chunks, so an app update does not make browsers download them again.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 4 },
            { name: 'mui', test: /node_modules[\\/](@mui(?![\\/]x-)|@emotion|@babel|@popperjs|react-transition-group|react-is|stylis|clsx|prop-types|hoist-non-react-statics)[\\/]/, priority: 3 },
            // After 'react' and 'mui' (which it uses), before 'vendor' (which would take its d3 into every page's load).
            { name: 'charts', test: CHARTS, priority: 2 },
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
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          // What the page does next (the focus given back after a dialog's exit, a list redrawn) is polled for: one
          // second, vitest's default, was too short on two busy cores.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
