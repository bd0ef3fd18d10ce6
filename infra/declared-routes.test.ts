/**
 * Each service serves exactly the routes declared for it in @puente/contracts: no route without a declaration, no
 * declaration without its route. The gateway's side of the same rule, and the
 * OpenAPI document's, are tested in gateway/src/gateway.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiRoutes, servicePath } from '@puente/contracts';
import { startEmbedded, type Embedded } from './embedded.ts';

let app: Embedded;
const dataDir = mkdtempSync(join(tmpdir(), 'puente-routes-'));
beforeAll(async () => {
  app = await startEmbedded({ ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { quiet: true, printAdmin: () => {} });
}, 60_000);
afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What every service serves besides its declared routes: liveness and readiness. */
const PLATFORM = ['GET /health', 'GET /ready'];

it('serves in each service exactly its declared routes', () => {
  for (const service of app.services) {
    const served = service.app.servedRoutes.map((r) => `${r.method} ${r.url}`).filter((r) => !PLATFORM.includes(r)).sort();
    const declared = ApiRoutes.filter((r) => r.service === service.name).map((r) => `${r.method} ${servicePath(r)}`).sort();
    expect({ service: service.name, served }).toEqual({ service: service.name, served: declared });
  }
});
