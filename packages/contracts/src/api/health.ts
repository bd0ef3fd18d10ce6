/** The gateway's GET /api/health. */
import { z } from 'zod';

import { ServiceName } from '../service-names.ts';

/** The seven services behind the gateway. */
export const BackendService = ServiceName;
export type BackendService = z.infer<typeof BackendService>;

/**
 * A service's GET /ready (api-conventions, Health): 200 while it can serve, that is while its database answers;
 * `degraded` when the bus or Redis (its jobs) is away, which it rides out (its outbox keeps what it publishes), or
 * when a recurring job's schedule is missing (`missingSchedules`: a Redis that lost its data, until registered again).
 */
export const ReadyResponse = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  checks: z.object({ database: z.boolean(), bus: z.boolean(), jobs: z.boolean(), schedules: z.boolean() }),
  missingSchedules: z.array(z.string()).optional(),
});
export type ReadyResponse = z.infer<typeof ReadyResponse>;

/** ok; degraded: it serves, with its bus or Redis away; down: it does not answer, or cannot serve. */
export const ServiceHealth = z.enum(['ok', 'degraded', 'down']);
export type ServiceHealth = z.infer<typeof ServiceHealth>;

/** 'ok' when every service is ok, 'degraded' otherwise; services covers all seven. */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  services: z.record(BackendService, ServiceHealth),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
