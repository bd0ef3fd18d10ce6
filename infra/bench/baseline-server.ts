/**
 * The benchmark's baseline: a bare Fastify server (no plugins, no schema) answering GET /list with the JSON read from
 * BODY_FILE, serialised on every request as Fastify does by default. Run as its own process, so it gets a thread of
 * its own like the product does; it prints its port once listening.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body: unknown = JSON.parse(readFileSync(process.env.BODY_FILE!, 'utf8'));
const app = Fastify();
app.get('/list', async () => body);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => { void app.close().then(() => process.exit(0)); });
