/**
 * Fails on any import cycle between modules, type-only imports included: `npm run cycles` (CI runs it after the
 * typecheck). The layers are contracts ← platform ← services and gateway ← infra (docs/services.md), and within a
 * package a module never imports one that imports it back. Uses madge's graph of every .ts/.tsx file below the
 * folders, resolved as the typecheck resolves them (tsconfig.json, workspace packages to their sources).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// madge ships no types; this is the part of its API used here.
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<{ obj(): Record<string, string[]>; circular(): string[][] }>;
const madge = createRequire(import.meta.url)('madge') as Madge;

const root = fileURLToPath(new URL('../..', import.meta.url));
const folders = ['packages', 'services', 'gateway', 'infra', 'web/src'];

const started = performance.now();
const graph = await madge(folders.map((folder) => `${root}${folder}`), {
  baseDir: root,
  fileExtensions: ['ts', 'tsx'],
  tsConfig: `${root}tsconfig.json`,
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
});
const cycles = graph.circular();
const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;

if (cycles.length === 0) {
  console.log(`no import cycles among ${Object.keys(graph.obj()).length} modules of ${folders.join(', ')} (${took})`);
} else {
  console.error(`${cycles.length} import cycle${cycles.length === 1 ? '' : 's'} (type-only imports count too):`);
  for (const cycle of cycles) console.error(`  ${[...cycle, cycle[0]].join(' -> ')}`);
  console.error('Break each one: move what the modules share into a lower module that both import (as contracts/src/service-names.ts),');
  console.error('or declare what the lower module needs as a small interface at its own level (as ObservedService in');
  console.error('platform/src/observability/metrics.ts). Never copy the declaration. Then run npm run cycles again.');
  process.exitCode = 1;
}
