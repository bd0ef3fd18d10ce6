/**
 * The tracing a process starts (tracing.ts: the http and undici instrumentations, the exporter) and its logger,
 * around a request served and the call it makes onward, both with a secret in the query: the spans as exported and
 * the lines as written keep the parameter names and not one value.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SpanKind } from '@opentelemetry/api';
import { startTracing } from './tracing.ts';
import { flushTraces } from './spans.ts';
import { createLogger } from '../logger.ts';

interface ExportedSpan { name: string; kind: SpanKind; attributes: Record<string, unknown> }

const exported: ExportedSpan[] = [];
const exporter = {
  export(spans: ExportedSpan[], done: (result: { code: number }) => void) { exported.push(...spans); done({ code: 0 }); },
  shutdown: async () => {},
  forceFlush: async () => {},
};
const lines: string[] = [];
let sdk: { shutdown(): Promise<void> };
const apps: FastifyInstance[] = [];

beforeAll(() => {
  sdk = startTracing('redaction-test', exporter as never);
  // What a process's first require of http does after the preload: the instrumentation patches it.
  createRequire(import.meta.url)('node:http');
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await sdk?.shutdown();
});

it('exports the request served and the call onward with every query value redacted, and logs none', async () => {
  const { createHttpApp } = await import('../http/app.ts');
  const logger = createLogger({ name: 'redaction-test', level: 'trace', destination: { write: (line: string) => { lines.push(line); } } });
  const service = createHttpApp({ logger });
  service.get('/auth/google/callback', async () => ({ ok: true }));
  const serviceUrl = await service.listen({ host: '127.0.0.1', port: 0 });
  const gateway = createHttpApp({ logger });
  gateway.get('/api/auth/google/callback', async (request) => (await fetch(`${serviceUrl}${request.url.slice('/api'.length)}`)).json());
  const gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
  apps.push(gateway, service);

  const res = await fetch(`${gatewayUrl}/api/auth/google/callback?code=4%2F0Agoogle-code-1&state=state-value-1`);
  expect(await res.json()).toEqual({ ok: true });
  await flushTraces();

  const served = exported.filter((s) => s.kind === SpanKind.SERVER);
  expect(served.map((s) => [s.attributes['url.path'], s.attributes['url.query']]).sort()).toEqual([
    ['/api/auth/google/callback', 'code=REDACTED&state=REDACTED'],
    ['/auth/google/callback', 'code=REDACTED&state=REDACTED'],
  ]);
  const calls = exported.filter((s) => s.kind === SpanKind.CLIENT);
  expect(calls.map((s) => s.attributes['url.full'])).toEqual([`${serviceUrl}/auth/google/callback?code=REDACTED&state=REDACTED`]);
  const everything = JSON.stringify(exported.map((s) => [s.name, s.attributes])) + lines.join('');
  for (const secret of ['google-code-1', 'state-value-1']) expect(everything).not.toContain(secret);
  expect(lines.map((l) => JSON.parse(l) as { msg: string; req?: { url: string } }).filter((l) => l.msg === 'request completed').map((l) => l.req?.url).sort())
    .toEqual(['/api/auth/google/callback?code=REDACTED&state=REDACTED', '/auth/google/callback?code=REDACTED&state=REDACTED']);
});
