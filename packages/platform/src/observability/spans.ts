/**
 * The spans Puente makes itself, through @opentelemetry/api only: a request's span named after its route, one span
 * per event leaving an outbox and one per event handled by a consumer, chained by the W3C trace context stored with
 * the event (outbox row) and carried beside it (Kafka record headers, the in-process bus's log). The relay publishes
 * many requests' events in one Kafka send, so the kafkajs instrumentation (one context per send) cannot do this.
 * Without the SDK (tracing.ts, started only when OTEL_EXPORTER_OTLP_ENDPOINT is set) every call here is the API's
 * no-op, and the request hook and log fields are not even installed.
 */
import {
  context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventEnvelope } from '@puente/contracts';
import type { EventHeaders } from '../messaging/bus.ts';

/** The API's proxy tracer: it starts delegating to the SDK once the preload has registered one, a no-op until then. */
const tracer = trace.getTracer('@puente/platform');
let started = false;

/** Said by tracing.ts once the SDK is registered. */
export function markTracingStarted(): void {
  started = true;
}

/** True once this process exports traces. */
export function tracingStarted(): boolean {
  return started;
}

/** Exports the spans still buffered (before the process exits). */
export async function flushTraces(): Promise<void> {
  if (!started) return;
  const provider = (trace.getTracerProvider() as { getDelegate?(): { forceFlush?(): Promise<void> } }).getDelegate?.();
  await provider?.forceFlush?.().catch(() => {});
}

/**
 * The HTTP server span (instrumentation-http names it by method alone) renamed to the route's pattern, as in
 * `POST /api/exchange-matches` or `PUT /exchange-matches/:id/confirm`: one name per route, not per id.
 */
export function nameRequestSpans(app: FastifyInstance): void {
  if (!started) return;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (!route) return;
    const span = trace.getActiveSpan();
    span?.updateName(`${request.method} ${route}`);
    span?.setAttribute('http.route', route);
  });
}

/**
 * Runs fn outside any trace. The outbox relay's work that a commit kicks off belongs to no request: in the
 * committing request's context its lease and batch queries would show up in that request's trace.
 */
export function untraced<T>(fn: () => T): T {
  return context.with(ROOT_CONTEXT, fn);
}

/** Fields for every log line written inside a span (pino's mixin): the trace and span ids. */
export function traceLogFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** An outbox row's JSON: the envelope, and the trace context of the work that staged it. */
export type StoredEvent = EventEnvelope & { headers?: EventHeaders };

/** The envelope as the outbox stores it: with the active trace context, when there is one. */
export function withTraceContext(event: EventEnvelope): StoredEvent {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers.traceparent ? { ...event, headers } : event;
}

/**
 * Publishes stored events in one call, each in an `outbox publish <type>` span whose parent is the context it was
 * stored with; each goes out with its own span's context as headers, so its consumers continue its trace.
 */
export async function publishStored(
  events: StoredEvent[], publish: (events: EventEnvelope[], headers: (EventHeaders | undefined)[]) => Promise<void>,
  where: { topic: string; system: string },
): Promise<void> {
  const spans: Span[] = [];
  const envelopes: EventEnvelope[] = [];
  const headers: (EventHeaders | undefined)[] = [];
  for (const { headers: stored, ...event } of events) {
    const span = tracer.startSpan(`outbox publish ${event.type}`, {
      kind: SpanKind.PRODUCER, attributes: messagingAttributes(where.system, where.topic, event, 'send'),
    }, stored ? propagation.extract(ROOT_CONTEXT, stored) : ROOT_CONTEXT);
    const outgoing: Record<string, string> = {};
    propagation.inject(trace.setSpan(ROOT_CONTEXT, span), outgoing);
    spans.push(span);
    envelopes.push(event);
    headers.push(outgoing.traceparent ? outgoing : undefined);
  }
  try {
    await publish(envelopes, headers);
  } catch (err) {
    for (const span of spans) failed(span, err);
    throw err;
  } finally {
    for (const span of spans) span.end();
  }
}

/** Runs one attempt of a consumer's handler in a `consume <type>` span, the child of the event's publish span. */
export function inConsumeSpan<T>(
  where: { group: string; topic: string; system: string }, event: EventEnvelope, headers: EventHeaders | undefined,
  handle: () => Promise<T>,
): Promise<T> {
  const parent: Context = headers ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
  const attributes = { ...messagingAttributes(where.system, where.topic, event, 'process'), 'messaging.consumer.group.name': where.group };
  return tracer.startActiveSpan(`consume ${event.type}`, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
    try {
      return await handle();
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** A Kafka record's headers as strings (kafkajs gives Buffers). */
export function headersOfRecord(raw: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined): EventHeaders | undefined {
  const traceparent = raw?.traceparent;
  if (traceparent === undefined) return undefined;
  const text = (v: Buffer | string | (Buffer | string)[]) => String(Array.isArray(v) ? v[0] : v);
  const tracestate = raw?.tracestate;
  return { traceparent: text(traceparent), ...(tracestate !== undefined ? { tracestate: text(tracestate) } : {}) };
}

function messagingAttributes(system: string, topic: string, event: EventEnvelope, operation: 'send' | 'process'): Attributes {
  return {
    'messaging.system': system,
    'messaging.destination.name': topic,
    'messaging.operation.type': operation,
    'messaging.message.id': event.id,
    'puente.event.type': event.type,
    'puente.event.aggregate_id': event.aggregateId,
  };
}

function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}
