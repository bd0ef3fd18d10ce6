/**
 * Secrets for a deployment, one per purpose:
 *   npm run secrets                      a fresh set as .env lines (docker compose; the Kubernetes Secrets), e.g.
 *                                        `npm run secrets >> .env`
 *   npm run secrets -- env <service>     what one process of <service> (or the gateway) is given by the runners, read
 *                                        from DATA_DIR/secrets.json (.data): to start that process alone by hand
 * Each service's signing key is its own; SERVICE_PUBLIC_KEYS lists them all and is not secret.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Parties, publicKeysOf, type Party } from '@puente/platform';
import { generateSecrets, runnerSecrets, secretsFile, SETTING_OF } from '../secrets.ts';

const [command, party] = process.argv.slice(2);

if (command === undefined) {
  const secrets = generateSecrets();
  const lines = [
    '# Puente secrets, one per purpose (npm run secrets). Keep them out of version control; back up the *_KEYS with the database.',
    ...Object.entries(SETTING_OF).map(([key, setting]) => `${setting}=${secrets[key as keyof typeof SETTING_OF]}`),
    ...Parties.map((p) => `${p.toUpperCase()}_SIGNING_KEY=${secrets.signingKeys[p]}`),
    `SERVICE_PUBLIC_KEYS=${publicKeysOf(secrets.signingKeys)}`,
    `POSTGRES_PASSWORD=${randomBytes(24).toString('hex')}`,
    `REDIS_PASSWORD=${randomBytes(24).toString('hex')}`,
    `GRAFANA_ADMIN_PASSWORD=${randomBytes(18).toString('base64url')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} else if (command === 'env' && Parties.includes(party as Party)) {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  if (!existsSync(secretsFile(dataDir))) {
    console.error(`${secretsFile(dataDir)} does not exist yet: start Puente once (npm start or npm run start:distributed), or set DATA_DIR`);
    process.exit(1);
  }
  const env = runnerSecrets({}, dataDir).envOf(party as Party);
  for (const [name, value] of Object.entries(env)) process.stdout.write(`${name}=${value}\n`);
} else {
  console.error(`usage: npm run secrets                 (a fresh set, as .env lines)\n       npm run secrets -- env <${Parties.join('|')}>`);
  process.exit(2);
}
