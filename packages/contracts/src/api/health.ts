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

/**
 * How busy the gateway's way to one service is (its admission gate): requests in flight to it and waiting for a slot
 * now, the most it lets in flight, and since the gateway started the requests it refused (503) and those it answered
 * from a held copy instead.
 */
export const ServiceSaturation = z.object({
  inFlight: z.number().int().nonnegative(),
  queued: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  shed: z.object({ refused: z.number().int().nonnegative(), held: z.number().int().nonnegative() }),
});
export type ServiceSaturation = z.infer<typeof ServiceSaturation>;

/**
 * The gateway's own door (admission by user, ADMISSION_EVENT_LOOP_UTILIZATION): how many signed-in users it serves
 * now, how many it will (null: any number, the door is open), and the polls it has refused since it started. null
 * when that setting is off.
 */
export const UserAdmissionState = z.object({
  served: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative().nullable(),
  refused: z.number().int().nonnegative(),
}).nullable();
export type UserAdmissionState = z.infer<typeof UserAdmissionState>;

/**
 * 'ok' when every service is ok, 'degraded' otherwise; services covers all seven, and so does saturation (a busy
 * service is still 'ok': it answers, some callers are asked to come back).
 */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  services: z.record(BackendService, ServiceHealth),
  saturation: z.record(BackendService, ServiceSaturation),
  users: UserAdmissionState,
});
export type HealthResponse = z.infer<typeof HealthResponse>;
