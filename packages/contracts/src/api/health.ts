/** The gateway's GET /api/health. */
import { z } from 'zod';

import { ServiceName } from '../service-names.ts';

/** The seven services behind the gateway. */
export const BackendService = ServiceName;
export type BackendService = z.infer<typeof BackendService>;

export const ServiceHealth = z.enum(['ok', 'down']);
export type ServiceHealth = z.infer<typeof ServiceHealth>;

/** 'ok' when every service is ok, 'degraded' otherwise; services covers all seven. */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  services: z.record(BackendService, ServiceHealth),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
