/**
 * Admission control for the gateway's own process (@fastify/under-pressure). The gates in admission.ts guard the
 * services; but most polls are answered by the gateway itself (304s, kept answers) and never reach a gate, so when the
 * gateway's CPU is what runs out, every answer slows together and nothing is refused. Its event-loop delay says so:
 * past ADMISSION_EVENT_LOOP_DELAY_MS (the mean over each 200 ms), a share of /api requests is refused at once, before
 * the session is even read, with the gates' 503 and jittered Retry-After. The share grows with the delay (at twice
 * the bound, half), so that the load falls back towards what the process can serve instead of flapping between all
 * and nothing. Never refused: /api/health, /ws, the web app's files, and the login's second step.
 * Off unless set: in embedded mode the services' database runs on the same event loop, so its delay also counts
 * their queries, and the bound is the runner's to choose.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { ApiRoutes, routerPath, Routes, type ApiRoute, type ServiceName } from '@puente/contracts';
import type { Metrics } from '@puente/platform';
import { refusal, type Admission } from './admission.ts';

/** How often the event-loop delay is read (the share refused holds until the next reading). */
const SAMPLE_MS = 200;

export async function shedUnderPressure(app: FastifyInstance, opts: {
  maxEventLoopDelayMs: number; admission: Admission; metrics?: Pick<Metrics, 'countShed'> | undefined;
}): Promise<void> {
  const routes = new Map<string, ApiRoute>(ApiRoutes
    .filter((route) => route.service !== 'gateway' && route.access !== 'internal' && route !== Routes.identity.loginTwoFactor)
    .map((route) => [`${route.method} ${routerPath(route)}`, route]));
  await app.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs,
    sampleInterval: SAMPLE_MS,
    // Refuses by sending the reply (the request's later hooks then do nothing); otherwise lets it through.
    pressureHandler: async (request: FastifyRequest, reply: FastifyReply, _type: string, delayMs: number | undefined) => {
      const route = routes.get(`${request.method} ${request.routeOptions.url}`);
      if (!route || Math.random() >= 1 - opts.maxEventLoopDelayMs / (delayMs ?? Infinity)) return;
      const service = route.service as ServiceName;
      opts.admission.shed(service, 'refused');
      opts.metrics?.countShed(service, routerPath(route), 'refused');
      reply.send(refusal(reply, route.method !== 'GET'));
    },
  });
}
