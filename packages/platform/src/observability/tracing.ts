/**
 * OpenTelemetry tracing for one process, exported by OTLP over HTTP (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT. Started by
 * preload.ts (`node --import @puente/platform/preload`) before any other module loads, and only when that variable is
 * set: otherwise not one of these modules is loaded.
 *
 * What patches on Node 24 here, run as ESM with type stripping (measured): http (fastify requires node:http) and pg
 * (pg's own require of lib/client.js) are patched through require-in-the-middle with no loader hook; undici (the
 * gateway's proxy and fetch) is observed through diagnostics_channel. kafkajs and pino, imported from ESM, would need
 * import-in-the-middle's loader hook (~75 ms more at start); neither is needed: the outbox and consumer spans are made
 * by hand (spans.ts), since one Kafka send carries many requests' events, and log lines get the trace id from a pino
 * mixin (logger.ts).
 */
import { NodeSDK, type NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { ATTR_DB_QUERY_TEXT } from '@opentelemetry/semantic-conventions';
import { markTracingStarted } from './spans.ts';
import { redactQuery, redactUrl } from './redacted-urls.ts';

/** Probes and scrapes, many a minute each: traced, they would bury the traces of what users do. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics', '/api/health']);

/** `exporter`: OTLP/HTTP by default (OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces), batched (OTEL_BSP_*). */
export function startTracing(serviceName: string, exporter: SpanExporter = new OTLPTraceExporter()): { shutdown(): Promise<void> } {
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: withRedactedUrls(exporter), // no query value leaves in a span
    // Traces only: metrics are Prometheus' (prom-client), logs stay on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]!),
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Only queries made while serving something: not the outbox relays' and job workers' polling.
      new PgInstrumentation({
        requireParentSpan: true,
        // MikroORM writes values into its SQL: names, emails, hashes and payloads must not leave in a span.
        requestHook: (span, { query }) => { if (query.text) span.setAttribute(ATTR_DB_QUERY_TEXT, withoutLiterals(query.text)); },
      }),
    ],
  });
  sdk.start();
  markTracingStarted();
  return sdk;
}

/** SQL with every quoted literal replaced by '?'. */
export function withoutLiterals(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, "'?'");
}

type SpanExporter = NonNullable<NodeSDKConfiguration['traceExporter']>;
type ReadableSpan = Parameters<SpanExporter['export']>[0][number];

/**
 * The span attributes that hold a URL or its query: the stable names http and undici write (url.full on calls,
 * url.query on requests served), and the older http.url and http.target, whichever instrumentation writes them.
 */
const URL_ATTRIBUTES: Record<string, (value: string) => string> = {
  'url.full': redactUrl, 'url.query': redactQuery, 'http.url': redactUrl, 'http.target': redactUrl,
};

/**
 * The exporter, given each span with its URL attributes' query values redacted (redacted-urls.ts). At the export,
 * the last step before a span leaves the process, it holds whatever any instrumentation set at any point. A span
 * with such a value goes as a view of it (its own attributes over the span), leaving the span itself untouched.
 */
export function withRedactedUrls(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => exporter.export(spans.map(withoutQueryValues), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

function withoutQueryValues(span: ReadableSpan): ReadableSpan {
  let attributes: ReadableSpan['attributes'] | undefined;
  for (const [key, redact] of Object.entries(URL_ATTRIBUTES)) {
    const value = span.attributes[key];
    if (typeof value !== 'string') continue;
    const redacted = redact(value);
    if (redacted !== value) attributes = { ...(attributes ?? span.attributes), [key]: redacted };
  }
  return attributes ? Object.create(span, { attributes: { value: attributes, enumerable: true } }) as ReadableSpan : span;
}
