/**
 * An event's trace context, from the request that staged it to the consumer that handles it: stored in the outbox
 * row, continued by the relay's publish span, carried beside the event (in-process log, Kafka record headers) and
 * continued by the consumer's span. On real PostgreSQL, with the SDK registered in this test (spans kept in memory).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SpanKind, trace, type SpanContext } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { defineEntity, p } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@puente/contracts';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { openDatabase, type Orm } from '../db/database.ts';
import { InProcessBus } from '../messaging/in-process.ts';
import { OutboxRelay, addToOutbox } from '../messaging/outbox.ts';
import { makeEvent } from '../messaging/envelope.ts';
import { toRecords } from '../messaging/kafka-records.ts';
import { headersOfRecord, markTracingStarted, type StoredEvent } from './spans.ts';

const NoteSchema = defineEntity({ name: 'Note', tableName: 'note', properties: { id: p.integer().primary().autoincrement() } });
const SCHEMA = 'spans_test';
const TOPIC = 'puente.identity';

/** What the SDK hands a span processor when a span ends (the fields read here). */
interface EndedSpan { name: string; kind: SpanKind; spanContext(): SpanContext; parentSpanContext?: SpanContext }

const ended: EndedSpan[] = [];
const sdk = new NodeSDK({
  spanProcessors: [{ onStart() {}, onEnd(span: EndedSpan) { ended.push(span); }, forceFlush: async () => {}, shutdown: async () => {} }] as never,
  instrumentations: [], metricReaders: [], logRecordProcessors: [], autoDetectResources: false,
});

const registered = (userId: number) => makeEvent('userRegistered', userId, { userId, firstName: 'Ana', lastName: 'Diaz', role: 'user', referrerId: null });
const spanNamed = (name: string) => ended.find((s) => s.name === name);

describeWithInfra(['postgres'], 'trace context through the outbox and the bus', () => {
  const db = useFreshDatabase('spans');
  let orm: Orm;

  beforeAll(async () => {
    sdk.start();
    markTracingStarted();
    orm = await openDatabase({ url: db.url, schema: SCHEMA, entities: [NoteSchema] });
  });
  afterAll(async () => {
    await orm?.close();
    await sdk.shutdown();
  });

  it('continues the trace of the request that staged an event in the relay\'s publish span and the consumer\'s span', async () => {
    const bus = new InProcessBus();
    const relay = new OutboxRelay({ orm, schema: SCHEMA, bus });
    const event = registered(7);
    const received: { event: EventEnvelope; span: SpanContext | undefined }[] = [];
    await bus.subscribe({
      group: 'notification', topics: [TOPIC],
      handle: async (e) => { received.push({ event: e, span: trace.getActiveSpan()?.spanContext() }); },
    });
    // A group reading the topic for other types: passed over, so the trace shows only the consumers that act.
    const passedOver: EventEnvelope[] = [];
    await bus.subscribe({ group: 'audit', topics: [TOPIC], types: ['identity.login.attempted'], handle: async (e) => { passedOver.push(e); } });

    const tracer = trace.getTracer('test');
    const request = await tracer.startActiveSpan('POST /notes', { kind: SpanKind.SERVER }, async (span) => {
      await orm.em.fork().transactional(async (tx) => { addToOutbox(tx, event); });
      span.end();
      return span.spanContext();
    });

    const [row] = await orm.em.fork().execute<{ envelope: StoredEvent }[]>(`select envelope from ${SCHEMA}.outbox_event where event_id = ?`, [event.id]);
    expect(row?.envelope.headers?.traceparent).toBe(`00-${request.traceId}-${request.spanId}-01`);

    expect(await relay.flush()).toBe(1);
    await bus.drain();
    await bus.close();

    const publish = spanNamed(`outbox publish ${event.type}`);
    const consume = spanNamed(`consume ${event.type}`);
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(consume?.kind).toBe(SpanKind.CONSUMER);
    // request → outbox publish → consume, one trace
    expect(publish?.parentSpanContext?.spanId).toBe(request.spanId);
    expect(consume?.parentSpanContext?.spanId).toBe(publish?.spanContext().spanId);
    expect(new Set([request, publish!.spanContext(), consume!.spanContext()].map((s) => s.traceId)).size).toBe(1);
    // The handler runs inside the consume span; the event it gets is the envelope alone, as staged.
    expect(received).toEqual([{ event, span: consume!.spanContext() }]);
    expect(passedOver).toEqual([]);
    expect(ended.filter((s) => s.name === consume!.name)).toHaveLength(1);
  });

  it('stores no trace context for an event staged outside any trace', async () => {
    const event = registered(8);
    await orm.em.fork().transactional(async (tx) => { addToOutbox(tx, event); });
    const [row] = await orm.em.fork().execute<{ envelope: StoredEvent }[]>(`select envelope from ${SCHEMA}.outbox_event where event_id = ?`, [event.id]);
    expect(row?.envelope).toEqual(event);
  });
});

it('carries an event\'s trace context as Kafka record headers, beside its type', () => {
  const event = registered(9);
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const [record] = toRecords([event], [{ traceparent }]);
  expect(record?.headers).toEqual({ traceparent, type: event.type });
  expect(JSON.parse(String(record?.value))).toEqual(event);
  // kafkajs hands headers back as Buffers
  expect(headersOfRecord({ type: Buffer.from(event.type), traceparent: Buffer.from(traceparent) })).toEqual({ traceparent });
  expect(headersOfRecord({ type: Buffer.from(event.type) })).toBeUndefined();
});
