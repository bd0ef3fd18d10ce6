/**
 * The seven services, named once. The lowest contracts module: events (each event's producer and topic) and the HTTP
 * routes (each route's owner) both read it, so it imports neither.
 */
import { z } from 'zod';

export const ServiceNames = ['identity', 'accounts', 'exchange', 'rating', 'notification', 'subscription', 'audit'] as const;
export const ServiceName = z.enum(ServiceNames);
export type ServiceName = z.infer<typeof ServiceName>;
