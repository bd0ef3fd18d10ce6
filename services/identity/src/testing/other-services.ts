/**
 * The other six services as identity's tests meet them: one HTTP server each, answering its declared internal routes
 * (the user's data section, exchange's trades in progress) with what a test sets, and recording who called with what.
 * A service cannot start another's code (the lint keeps them apart): the real ones answer in infra's end-to-end tests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_TOKEN_HEADER, type Caller } from '@puente/platform';
import { testAuth } from '@puente/platform/testing';
import { Routes, servicePath, type ServiceName } from '@puente/contracts';

export interface Answer { status: number; body: unknown }
export interface ServedCall { service: ServiceName; path: string; query: string; caller: Caller | null }

export interface OtherServices {
  urls: Partial<Record<ServiceName, string>>;
  calls: ServedCall[];
  /** What the service answers on the route at `path` (a service path: `/internal/...`). */
  answer(service: ServiceName, path: string, answer: Answer): void;
  stop(): Promise<void>;
}

const SERVED: Partial<Record<ServiceName, string[]>> = {
  accounts: [servicePath(Routes.accounts.personalData)],
  exchange: [servicePath(Routes.exchange.personalData), servicePath(Routes.exchange.tradesInProgress)],
  rating: [servicePath(Routes.rating.personalData)],
  notification: [servicePath(Routes.notification.personalData)],
  subscription: [servicePath(Routes.subscription.personalData)],
  audit: [servicePath(Routes.audit.personalData)],
};

/** Each fake checks the internal token a call carries as its service would (the test keys). */
export async function startOtherServices(): Promise<OtherServices> {
  const answers = new Map<string, Answer>();
  const calls: ServedCall[] = [];
  const servers: Server[] = [];
  const urls: Partial<Record<ServiceName, string>> = {};
  for (const [service, paths] of Object.entries(SERVED) as [ServiceName, string[]][]) {
    const auth = testAuth(service);
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://service');
      const token = req.headers[INTERNAL_TOKEN_HEADER];
      void (typeof token === 'string' ? auth.verify(token).catch(() => null) : Promise.resolve(null)).then((caller) => {
        calls.push({ service, path: url.pathname, query: url.search, caller });
        const answer = paths.includes(url.pathname) ? answers.get(`${service} ${url.pathname}`) : undefined;
        res.writeHead(answer?.status ?? 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer?.body ?? { message: 'Not found' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls[service] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  return {
    urls,
    calls,
    answer: (service, path, answer) => { answers.set(`${service} ${path}`, answer); },
    stop: async () => { await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))); },
  };
}
