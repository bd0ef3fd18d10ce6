/**
 * The benchmark's baseline: a bare Fastify server (no plugins, no schema) answering GET of each path in ROUTES_FILE
 * (a JSON object: path → body) with that body, serialised on every request as Fastify does by default, whatever the
 * query, cookie or If-None-Match. Run as its own process, so it gets a thread of its own like the product does; it
 * prints its port once listening.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const routes = JSON.parse(readFileSync(process.env.ROUTES_FILE!, 'utf8')) as Record<string, unknown>;
const app = Fastify();
for (const [path, body] of Object.entries(routes)) app.get(path, async () => body);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => { void app.close().then(() => process.exit(0)); });
