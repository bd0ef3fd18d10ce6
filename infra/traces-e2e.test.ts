/**
 * Traces end to end (distributed): every process exports its spans by OTLP/HTTP (JSON) to a receiver in this test,
 * as it would to Jaeger. Bob accepts Ana's request through the gateway; the accept must come out as one trace, read
 * as an operator reads it in Jaeger: the gateway's span for the route → its call to the exchange service → the
 * exchange's span for the route → the outbox relay publishing `exchange.match.created` → the notification service
 * consuming it (and telling Ana), each span the child of the one before, and the lines the services logged while
 * serving the accept carry its trace id.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ExchangeMatch, ExchangeRequest, NotificationList } from '@puente/contracts';
import { appClient, describeWithInfra, type AppClient } from '@puente/testkit';
import { startDistributedApp, type RunningTestApp, showOutputOnFailure } from './testing/running-app.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders, viaBus } from './testing/traders.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './testing/otlp-receiver.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'TRACES-CODE' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  // The mock broker does not answer a waiting fetch when records arrive (a real one does): short waits.
  KAFKA_FETCH_MAX_WAIT_MS: '100', OUTBOX_POLL_MS: '100',
  // Spans leave every 200 ms (the SDK's default is 5 s); debug, so that the services' request lines are written.
  OTEL_BSP_SCHEDULE_DELAY: '200', LOG_LEVEL: 'debug',
};
const SPAN_KIND = { server: 2, client: 3, producer: 4, consumer: 5 };

describeWithInfra(['postgres', 'redis', 'kafka'], 'one trace from the gateway through exchange, its outbox and Kafka to the notification consumer', () => {
  let receiver: OtlpReceiver;
  let app: RunningTestApp;
  let client: AppClient;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    app = await startDistributedApp('traces-e2e', { ...appEnv, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    client = appClient(app.url);
  }, 150_000);
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  }, 60_000);
  showOutputOnFailure(() => app);

  it('exports the accept of a request as one trace: gateway → exchange → outbox publish → notification\'s consumer', async () => {
    const ana = await client.signUp(traders.ana, ADMIN.code);
    const bob = await client.signUp(traders.bob, ADMIN.code);
    await addBankAccounts(client, ana, bankAccountsOf.ana);
    await addBankAccounts(client, bob, bankAccountsOf.bob);
    const request = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', ana, {
      fromCurrency: 'GBP', toCurrency: 'CLP', amount: 150.25, exchangeRate: 1275,
    }));
    ExchangeMatch.parse(await onceAccountsKnown(client, '/api/exchange-matches', bob, { exchangeRequestId: request.id }));
    // The notification service heard of the match over Kafka and told Ana.
    await vi.waitFor(async () => {
      const listed = NotificationList.parse(await client.json('/api/notifications', 200, { cookie: ana.cookie }));
      expect(listed.map((n) => n.type)).toContain('exchange_match');
    }, viaBus);

    // The accept that was answered 201 (an earlier try may have been refused until exchange knew Bob's accounts), and
    // its trace once its consumers' spans have been exported too.
    const { accept, spans } = await vi.waitFor(() => {
      const all = receiver.spans();
      const accept = all.find((s) => s.service === 'gateway' && s.name === 'POST /api/exchange-matches' && Number(statusOf(s)) === 201);
      expect(accept, 'the gateway\'s span of the accept').toBeDefined();
      const spans = all.filter((s) => s.traceId === accept!.traceId);
      const names = spans.map((s) => `${s.service} ${s.name}`);
      expect(names).toContain('notification consume exchange.match.created');
      // What that consumer stored went on in the same trace, to the gateway's live channel (Ana's open sockets).
      expect(names).toContain('gateway consume notification.notification.created');
      // Every service that acts on the match has its span; a group that only reads exchange's topic (identity), none.
      const consumers = new Set(spans.filter((s) => s.name === 'consume exchange.match.created').map((s) => s.service));
      expect([...consumers].sort()).toEqual(['accounts', 'notification', 'rating']);
      return { accept: accept!, spans };
    }, { timeout: 30_000, interval: 200 });

    // From the consumer's span up to the root, parent by parent: every link resolves within the trace.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const consume = spans.find((s) => s.service === 'notification' && s.name === 'consume exchange.match.created')!;
    const chain: ReceivedSpan[] = [];
    for (let span: ReceivedSpan | undefined = consume; span; span = byId.get(span.parentSpanId)) chain.unshift(span);
    expect(chain[0]?.parentSpanId, 'the chain reaches the trace\'s root').toBe('');
    expect(chain.map((s) => [s.service, s.name, s.kind])).toEqual([
      ['gateway', 'POST /api/exchange-matches', SPAN_KIND.server],
      ['gateway', 'POST', SPAN_KIND.client], // the proxy's call (undici)
      ['exchange', 'POST /exchange-matches', SPAN_KIND.server],
      ['exchange', 'outbox publish exchange.match.created', SPAN_KIND.producer],
      ['notification', 'consume exchange.match.created', SPAN_KIND.consumer],
    ]);
    expect(chain[0]).toBe(accept);
    expect(consume.attributes).toMatchObject({ 'messaging.system': 'kafka', 'messaging.destination.name': 'puente.exchange', 'messaging.consumer.group.name': 'notification' });
    // The queries the exchange ran for the accept are in it too (pg), under its route's span.
    const queries = spans.filter((s) => (s.attributes['db.system.name'] ?? s.attributes['db.system']) === 'postgresql');
    expect(queries.some((s) => s.service === 'exchange')).toBe(true);
    const statements = queries.map((s) => String(s.attributes['db.query.text']));
    // ...but not the outbox relay's lease and batch queries, which belong to no request,
    expect(statements.filter((q) => /relay_lease|outbox_event/.test(q) && !/^insert/i.test(q))).toEqual([]);
    // and no value MikroORM wrote into its SQL (a name, a notification's text, an event's payload) left in a span.
    expect(statements.filter((q) => q.replaceAll("'?'", '').includes("'"))).toEqual([]);

    // The log lines of the accept carry its trace id: the gateway's and the exchange's for the request.
    const traced = app.log().flatMap((line) => {
      const [, process, json] = /^\[([\w-]+)\] (\{.*\})$/.exec(line) ?? [];
      if (!json) return [];
      const entry = JSON.parse(json) as { trace_id?: string; msg?: string; req?: { url?: string } };
      return entry.trace_id === accept.traceId ? [`${process} ${entry.msg} ${entry.req?.url ?? ''}`.trim()] : [];
    });
    expect(traced).toEqual(expect.arrayContaining(['gateway request completed /api/exchange-matches', 'exchange request completed /exchange-matches']));

    // Probes are not traced, and every export was OTLP JSON on /v1/traces.
    expect(receiver.spans().filter((s) => /\/(health|ready)$/.test(s.name))).toEqual([]);
    expect(receiver.refused()).toEqual([]);
  }, 150_000);
});

/** The HTTP status a server span recorded (the stable attribute, or the older one). */
function statusOf(span: ReceivedSpan): unknown {
  return span.attributes['http.response.status_code'] ?? span.attributes['http.status_code'];
}
