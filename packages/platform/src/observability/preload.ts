/**
 * Loaded before a process's own modules (`node --import @puente/platform/preload <script>`), so that the
 * instrumentations patch http and pg before Fastify and MikroORM load them. Starts tracing only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set; without it this file is all that runs.
 */
import { basename, dirname } from 'node:path';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { startTracing } = await import('./tracing.ts');
  startTracing(process.env.OTEL_SERVICE_NAME || serviceOf(process.argv[1] ?? ''));
}

/** The process's service, from its script: services/<name>/src/server.ts, gateway/src/server.ts; else `puente`. */
function serviceOf(script: string): string {
  const app = dirname(dirname(script));
  return script.endsWith('/src/server.ts') ? basename(app) : 'puente';
}
