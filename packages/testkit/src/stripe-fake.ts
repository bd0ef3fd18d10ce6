/**
 * A small fake of Stripe's HTTP API, for tests alone: the official `stripe` client is pointed at it
 * (`new Stripe(key, { ...fake.api })`) and it answers the calls a subscription service makes, in Stripe's request
 * and response shapes (form-encoded bodies with nested keys, `expand`, idempotency keys, list objects, error
 * bodies). State is in memory; test controls move subscriptions along (pay, fail, end a period) and build the
 * Stripe events a webhook would carry. Signing those is the test's job (`stripe.webhooks.generateTestHeaderString`).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Obj = Record<string, unknown>;
const API_VERSION = '2026-10-28.endive';
const PERIOD_S = 30 * 86_400;

export interface FakeStripeRequest { method: string; path: string; body: Obj; headers: Record<string, string | string[] | undefined> }

export interface FakeStripe {
  api: { host: string; port: number; protocol: 'http' };
  requests: FakeStripeRequest[];
  /** The stored subscription (latest_invoice as its id). */
  subscription(id: string): Obj;
  /** Its latest invoice, in the pinned API version's shape. */
  invoiceOf(subscriptionId: string): Obj;
  /** The first (or renewal) payment succeeded: invoice paid, subscription active. */
  pay(subscriptionId: string): void;
  /** A renewal failed: a new open invoice for the next period, the subscription past_due. */
  failPayment(subscriptionId: string): void;
  /** The period ended: canceled when set to cancel at its end, else renewed with a new paid invoice. */
  endPeriod(subscriptionId: string): void;
  /** A Stripe event of `type` about `object`, as a webhook delivers it. */
  event(type: string, object: Obj): Obj;
  stop(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` pairs into nested objects; numeric keys make arrays, `a[]` appends. */
export function parseForm(text: string): Obj {
  const out: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const keys = rawKey.replace(/\]/g, '').split('[');
    let node: Obj | unknown[] = out;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(keys[i + 1]!);
      const slot = Array.isArray(node) ? (key === '' ? node.length : Number(key)) : key;
      const holder = node as Record<string | number, unknown>;
      if (last) holder[slot] = value;
      else node = (holder[slot] ??= nextIsIndex ? [] : {}) as Obj | unknown[];
    });
  }
  return out;
}

class StripeError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | undefined;
  readonly param: string | undefined;
  constructor(status: number, type: string, message: string, code?: string, param?: string) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = param;
  }
}
const missing = (kind: string, value: string, param = 'id') => new StripeError(404, 'invalid_request_error', `No such ${kind}: '${value}'`, 'resource_missing', param);
const required = (param: string) => new StripeError(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param);

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const customers = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const idempotent = new Map<string, Obj>();

  const list = (data: Obj[], url: string) => ({ object: 'list', data, has_more: false, url });
  const periodOf = (s: Obj) => ((s.items as { data: Obj[] }).data[0]!);

  function newInvoice(s: Obj, status: 'open' | 'paid'): Obj {
    const item = periodOf(s);
    const invoice = {
      id: id('in'), object: 'invoice', customer: s.customer, status, livemode: false, created: now(),
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: s.id, metadata: s.metadata } },
      lines: { object: 'list', has_more: false, data: [{ object: 'line_item', period: { start: item.current_period_start, end: item.current_period_end } }] },
      confirmation_secret: { client_secret: `${id('pi')}_secret_${randomBytes(8).toString('hex')}`, type: 'payment_intent' },
    };
    invoices.set(invoice.id, invoice);
    s.latest_invoice = invoice.id;
    return invoice;
  }

  function stored(sid: string): Obj {
    const s = subscriptions.get(sid);
    if (!s) throw missing('subscription', sid);
    return s;
  }

  /** The subscription as the API answers it, its latest invoice expanded when asked. */
  function render(s: Obj, expand: unknown): Obj {
    const wanted = Array.isArray(expand) ? expand.map(String) : [];
    return wanted.some((e) => e.startsWith('latest_invoice')) ? { ...s, latest_invoice: invoices.get(String(s.latest_invoice)) } : s;
  }

  function route(method: string, path: string, body: Obj): Obj {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', created: now(), email: body.email ?? null, metadata: body.metadata ?? {}, livemode: false };
      customers.set(customer.id, customer);
      return customer;
    }
    if ((m = /^\/v1\/customers\/([\w]+)$/.exec(path)) && method === 'GET') return customers.get(m[1]!) ?? (() => { throw missing('customer', m![1]!); })();
    if ((m = /^\/v1\/customers\/([\w]+)$/.exec(path)) && method === 'DELETE') {
      // As Stripe does: the customer's subscriptions are cancelled at once.
      if (!customers.delete(m[1]!)) throw missing('customer', m[1]!);
      for (const s of subscriptions.values()) if (s.customer === m[1]) s.status = 'canceled';
      return { id: m[1], object: 'customer', deleted: true };
    }
    if (method === 'GET' && path === '/v1/prices') {
      const keys = (body.lookup_keys as string[] | undefined) ?? [];
      const active = body.active === undefined ? undefined : body.active === 'true';
      return list([...prices.values()].filter((p) => (keys.length === 0 || keys.includes(String(p.lookup_key))) && (active === undefined || p.active === active)), '/v1/prices');
    }
    if (method === 'POST' && path === '/v1/prices') {
      if (!body.currency) throw required('currency');
      const productData = body.product_data as Obj | undefined;
      if (!body.product && !productData?.name) throw required('product');
      const recurring = body.recurring as Obj | undefined;
      const price = {
        id: id('price'), object: 'price', active: true, currency: body.currency, unit_amount: Number(body.unit_amount), lookup_key: body.lookup_key ?? null,
        product: body.product ?? id('prod'), recurring: recurring ? { interval: recurring.interval, interval_count: 1 } : null, type: recurring ? 'recurring' : 'one_time', livemode: false,
      };
      prices.set(price.id, price);
      return price;
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      if (!body.customer) throw required('customer');
      if (!customers.has(String(body.customer))) throw missing('customer', String(body.customer), 'customer');
      const priceId = String(((body.items as Obj[] | undefined)?.[0] as Obj | undefined)?.price ?? '');
      if (!priceId) throw required('items');
      const price = prices.get(priceId);
      if (!price) throw missing('price', priceId, 'items[0][price]');
      const start = now();
      const s: Obj = {
        id: id('sub'), object: 'subscription', customer: body.customer, status: body.payment_behavior === 'default_incomplete' ? 'incomplete' : 'active',
        cancel_at_period_end: false, created: start, metadata: body.metadata ?? {}, livemode: false,
        items: { object: 'list', has_more: false, data: [{ id: id('si'), object: 'subscription_item', price, current_period_start: start, current_period_end: start + PERIOD_S }] },
        latest_invoice: null,
      };
      subscriptions.set(String(s.id), s);
      newInvoice(s, 'open');
      return render(s, body.expand);
    }
    if ((m = /^\/v1\/subscriptions\/(\w+)$/.exec(path))) {
      const s = stored(m[1]!);
      if (method === 'GET') return render(s, body.expand);
      if (method === 'POST') {
        if (body.cancel_at_period_end !== undefined) s.cancel_at_period_end = body.cancel_at_period_end === 'true';
        return render(s, body.expand);
      }
      if (method === 'DELETE') {
        s.status = 'canceled';
        return s;
      }
    }
    throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { text += chunk; });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe.fake');
      const body = parseForm(req.method === 'GET' || req.method === 'DELETE' ? url.search.slice(1) : text);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body, headers: req.headers });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), 'stripe-version': API_VERSION });
        res.end(JSON.stringify(payload));
      };
      if (!/^Bearer sk_test_\w+$/.test(req.headers.authorization ?? '')) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
      }
      const key = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
      try {
        if (typeof key === 'string' && idempotent.has(key)) return send(200, idempotent.get(key));
        const answer = route(req.method ?? 'GET', url.pathname, body);
        if (typeof key === 'string') idempotent.set(key, answer);
        return send(200, answer);
      } catch (err) {
        if (!(err instanceof StripeError)) return send(500, { error: { type: 'api_error', message: String(err) } });
        return send(err.status, { error: { type: err.type, message: err.message, ...(err.code ? { code: err.code } : {}), ...(err.param ? { param: err.param } : {}) } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    api: { host: '127.0.0.1', port, protocol: 'http' },
    requests,
    subscription: (sid) => ({ ...stored(sid) }),
    invoiceOf: (sid) => ({ ...invoices.get(String(stored(sid).latest_invoice))! }),
    pay(sid) {
      const s = stored(sid);
      invoices.get(String(s.latest_invoice))!.status = 'paid';
      s.status = 'active';
    },
    failPayment(sid) {
      const s = stored(sid);
      const item = periodOf(s);
      item.current_period_start = item.current_period_end;
      item.current_period_end = Number(item.current_period_end) + PERIOD_S;
      newInvoice(s, 'open');
      s.status = 'past_due';
    },
    endPeriod(sid) {
      const s = stored(sid);
      if (s.cancel_at_period_end) {
        s.status = 'canceled';
        return;
      }
      const item = periodOf(s);
      item.current_period_start = item.current_period_end;
      item.current_period_end = Number(item.current_period_end) + PERIOD_S;
      newInvoice(s, 'paid');
    },
    event: (type, object) => ({
      id: id('evt'), object: 'event', type, created: now(), api_version: API_VERSION, livemode: false, pending_webhooks: 1,
      request: { id: null, idempotency_key: null }, data: { object },
    }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
