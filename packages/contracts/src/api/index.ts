/** HTTP contracts of the Puente API: request and response schemas (zod) and the table of calls. */
export * from './common.ts';
export * from './identity.ts';
export * from './accounts.ts';
export * from './exchange.ts';
export * from './rating.ts';
export * from './notification.ts';
export * from './subscription.ts';
export * from './audit.ts';
export * from './health.ts';
export * from './routes.ts';
