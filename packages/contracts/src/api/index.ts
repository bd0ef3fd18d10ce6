/** HTTP contracts of the Puente API: request and response schemas (zod) and every route, declared once. */
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
export * from './route.ts';
export * from './identity-routes.ts';
export * from './accounts-routes.ts';
export * from './exchange-routes.ts';
export * from './engagement-routes.ts';
export * from './audit-routes.ts';
export * from './openapi.ts';
