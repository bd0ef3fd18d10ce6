/**
 * The OpenAPI 3.1 document of the public API, generated from the route declarations (JSON Schema from the zod
 * schemas by zod's own toJSONSchema). Internal routes are left out: the gateway never serves them.
 */
import { z } from 'zod';
import { ErrorBody } from './common.ts';
import { ApiRoutes } from './routes.ts';
import { IDEMPOTENCY_KEY_HOURS, IdempotencyRefusals, requestFields, successStatuses, type ApiRoute } from './route.ts';

type JsonSchema = Record<string, unknown>;

const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return json;
};

const ERROR = { $ref: '#/components/schemas/ErrorBody' };
const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });

const REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No content', 302: 'Redirect', 503: 'Unavailable',
};

/** The error answers a route can give, from what it takes and who may call it. */
function errorAnswers(route: ApiRoute): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  if (route.params || route.query || route.body || route.multipart) answers[400] = errorAnswer('Invalid input: `message` is the first field\'s, `errors` lists every field.');
  if (route.access === 'user' || route.access === 'admin') answers[401] = errorAnswer('Not signed in.');
  if (route.access === 'admin') answers[403] = errorAnswer('Signed in, but not an admin.');
  if (route.method !== 'GET') answers[403] ??= errorAnswer('A cross-site request (its Origin is not the app\'s).');
  if (route.params) answers[404] = errorAnswer('No such resource, or another user\'s.');
  if (route.multipart) {
    answers[413] = errorAnswer('The file is over the route\'s limit.');
    answers[415] = errorAnswer('Not multipart/form-data, or a file of a type the route does not take.');
  }
  if (route.idempotent) answers[409] ??= errorAnswer(`The Idempotency-Key is in use: \`${IdempotencyRefusals.reused.code}\` for a different request, \`${IdempotencyRefusals.inUse.code}\` while its first request has no answer yet.`);
  answers[429] = errorAnswer('Rate limited: see Retry-After.');
  answers[500] = errorAnswer('A fault (details are logged, never sent).');
  return answers;
}

function parameters(route: ApiRoute): unknown[] {
  const list: unknown[] = [];
  for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const name of requestFields(schema)) {
      list.push({
        name, in: where, required: where === 'path' || (json.required ?? []).includes(name),
        schema: json.properties?.[name] ?? {},
      });
    }
  }
  if (route.idempotent) {
    list.push({
      name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 },
      description: `Makes a retry safe: the first answer is kept per user and key for ${IDEMPOTENCY_KEY_HOURS} h and a repeat gets it again (header Idempotent-Replayed: true) without the work being done twice; a different request under the key is refused (409).`,
    });
  }
  return list;
}

/** A JSON body's schema, or a multipart form's: its file (binary) beside the declared text fields. */
function requestContent(route: ApiRoute): Record<string, unknown> {
  const fields = route.body ? schemaOf(route.body, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] } : {};
  if (!route.multipart) return { 'application/json': { schema: fields } };
  const { file, maxBytes } = route.multipart;
  return {
    'multipart/form-data': {
      schema: {
        type: 'object',
        properties: { ...fields.properties, [file]: { type: 'string', format: 'binary', description: `At most ${maxBytes} bytes.` } },
        required: [file, ...(fields.required ?? [])],
      },
    },
  };
}

function operation(route: ApiRoute): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of successStatuses(route)) {
    const schema = route.responses[status];
    responses[status] = {
      description: REASONS[status] ?? 'OK',
      ...(schema ? { content: Object.fromEntries([route.produces ?? 'application/json'].flat().map((type) => [type, { schema: schemaOf(schema, 'output') }])) } : {}),
      ...(route.paginated ? { headers: { 'X-Total-Count': { schema: { type: 'integer' }, description: 'How many items in all' } } } : {}),
    };
  }
  for (const [status, schema] of Object.entries(route.responses)) {
    if (Number(status) >= 400 && schema) responses[status] = { description: REASONS[Number(status)] ?? 'Error', content: { 'application/json': { schema: schemaOf(schema, 'output') } } };
  }
  return {
    operationId: `${route.service}.${route.name}`,
    summary: route.summary,
    tags: [route.service],
    security: route.access === 'visitor' ? [] : [{ session: [] }],
    'x-access': route.access,
    ...(parameters(route).length > 0 ? { parameters: parameters(route) } : {}),
    ...(route.body || route.multipart ? { requestBody: { required: true, content: requestContent(route) } } : {}),
    responses: { ...responses, ...errorAnswers(route) },
  };
}

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ApiRoutes) {
    if (route.access === 'internal') continue;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Puente API',
      version,
      description: 'Peer-to-peer GBP/CLP exchange. Every route is declared once in @puente/contracts; this document is generated from those declarations.',
    },
    paths,
    components: {
      schemas: { ErrorBody: schemaOf(ErrorBody, 'output') },
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'puente_session', description: 'The session cookie the gateway sets at login.' } },
    },
  };
}
