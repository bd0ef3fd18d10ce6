/**
 * The two tables of docs/architecture.md that the code already knows, made from the code so they cannot fall behind:
 * the event catalogue (every event type, its producer, and who consumes it: each service's subscription list,
 * src/events/consumers.ts, and the gateway's live channel) and the routing table (every declared route, its owner,
 * who may call it, and the callers of an internal one).
 *   npm run docs:tables                 prints them
 *   npm run docs:tables -- --write      rewrites them in docs/architecture.md, between the two marker comments
 *   npm run docs:tables -- --check      exits 1 when docs/architecture.md says otherwise (CI; infra/architecture-tables.test.ts)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiRoutes, Events, ServiceNames, type EventName } from '@puente/contracts';
import { createLogger, DEAD_LETTER_TYPE, type EventBus, type Subscription } from '@puente/platform';
import { LiveHub } from '../../gateway/src/live.ts';
import { serviceDefinitions } from '../services.ts';

const DOC = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url));
const BEGIN = '<!-- generated: npm run docs:tables -->';
const END = '<!-- end generated -->';

/** Each service's consumed event types, from its definition (the settings only need a bank key to build it). */
function serviceConsumers(): Map<string, string[]> {
  const definitions = serviceDefinitions({ BANK_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32).toString('base64')}` });
  const consumers = new Map<string, string[]>();
  for (const service of ServiceNames) {
    for (const { event } of definitions[service].consumers ?? []) {
      const type = Events[event].type;
      consumers.set(type, [...consumers.get(type) ?? [], service]);
    }
  }
  return consumers;
}

/** The event types the gateway's live channel reads: what its hub subscribes to, caught by a bus that only listens. */
async function liveChannelTypes(): Promise<string[]> {
  let types: string[] = [];
  const bus = {
    subscribe: async (subscription: Subscription) => {
      types = [...subscription.types ?? []];
      return { stop: async () => {} };
    },
  } as unknown as EventBus;
  const hub = new LiveHub({ bus, logger: createLogger({ name: 'docs-tables', level: 'silent' }), isSessionLive: async () => true });
  await hub.start();
  await hub.stop();
  return types;
}

const code = (text: string) => `\`${text}\``;

async function eventCatalogue(): Promise<string[]> {
  const consumers = serviceConsumers();
  for (const type of await liveChannelTypes()) consumers.set(type, [...consumers.get(type) ?? [], 'gateway (live channel, /ws)']);
  const rows = (Object.keys(Events) as EventName[]).map((name) => {
    const { type, version, producer } = Events[name];
    return `| ${code(type)} | ${version} | ${producer} | ${(consumers.get(type) ?? ['—']).join(', ')} |`;
  });
  return [
    '### Event catalogue',
    '',
    'Every event of `Events` (`packages/contracts/src/events.ts`), published on `puente.<producer>`; its consumers are',
    "the services whose `src/events/consumers.ts` lists it and the gateway's live channel (`gateway/src/live.ts`).",
    'What a consumer does with it is in that service\'s README.',
    '',
    '| Event type | Version | Producer | Consumers |',
    '|---|---|---|---|',
    ...rows,
    `| ${code(DEAD_LETTER_TYPE)} | — | any consumer's bus adapter | operators (\`puente.dead-letter.<group>\`, \`npm run dead-letters\`) |`,
  ];
}

function routingTable(): string[] {
  const rows = ApiRoutes.map((route) => {
    const access = route.access === 'internal' ? `internal: ${(route.callers ?? []).join(', ')}` : route.access;
    return `| ${route.method} | ${code(route.path)} | ${route.service} | ${access} | ${code(`Routes.${route.service}.${route.name}`)} |`;
  });
  return [
    '### Routing table',
    '',
    'Every route declared in `ApiRoutes` (`packages/contracts/src/api/*-routes.ts`): the gateway answers its own',
    '(owner gateway) and proxies the other `/api` ones to their owner; an internal route is called by the services',
    '(and the gateway) it names, never proxied.',
    '',
    '| Method | Path | Owner | Who may call | Declared as |',
    '|---|---|---|---|---|',
    ...rows,
  ];
}

/** The region between the markers, markers included. */
async function generated(): Promise<string> {
  return [BEGIN, '', ...await eventCatalogue(), '', ...routingTable(), '', END].join('\n');
}

function region(doc: string): { start: number; end: number } {
  const start = doc.indexOf(BEGIN);
  const endAt = doc.indexOf(END, start);
  if (start < 0 || endAt < 0) {
    console.error(`docs/architecture.md has no generated region: put ${BEGIN} and ${END} where the tables go`);
    process.exit(2);
  }
  return { start, end: endAt + END.length };
}

const mode = process.argv[2];
const tables = await generated();
if (mode === undefined) {
  process.stdout.write(`${tables}\n`);
} else if (mode === '--write' || mode === '--check') {
  const doc = readFileSync(DOC, 'utf8');
  const { start, end } = region(doc);
  if (mode === '--write') {
    writeFileSync(DOC, doc.slice(0, start) + tables + doc.slice(end));
    console.log('docs/architecture.md: event catalogue and routing table rewritten');
  } else if (doc.slice(start, end) !== tables) {
    console.error('docs/architecture.md is out of date: run npm run docs:tables -- --write');
    process.exit(1);
  } else {
    console.log('docs/architecture.md: event catalogue and routing table match the code');
  }
} else {
  console.error('usage: npm run docs:tables [-- --write | --check]');
  process.exit(2);
}
