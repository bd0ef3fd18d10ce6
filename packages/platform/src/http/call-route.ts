/**
 * Calling another service's declared route and reading its answer through the route's success schema. It needs of its
 * caller only a way to call a service (a ServiceContext's callService signs the call with the internal token), so the
 * modules below the service layer (db/projections.ts) use it without importing service.ts.
 */
import { servicePath, successStatuses, type ApiRoute, type ServiceName, type SuccessData } from '@puente/contracts';

/** Calls another service's HTTP API as this service: what ServiceContext.callService does. */
export interface ServiceCaller {
  callService(service: ServiceName, path: string, init?: RequestInit): Promise<Response>;
}

/**
 * Calls another service's declared GET route (one without path parameters, e.g. an internal one) with `query`, and
 * reads its answer through the route's success schema. Anything but its success status throws, naming the status.
 */
export async function callRoute<R extends ApiRoute>(
  ctx: ServiceCaller, service: ServiceName, route: R, query: Record<string, string | number>,
): Promise<SuccessData<R>> {
  const search = new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])));
  const res = await ctx.callService(service, `${servicePath(route)}?${search}`);
  const [status] = successStatuses(route);
  if (res.status !== status) throw new Error(`${service} answered ${res.status} to ${route.method} ${route.path}`);
  const schema = status === undefined ? null : route.responses[status];
  return (schema ? schema.parse(await res.json()) : undefined) as SuccessData<R>;
}
