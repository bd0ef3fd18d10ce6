/**
 * What the runners (embedded `npm start`, distributed `npm run start:distributed`) add to the services' environment,
 * and what the demo says about itself when it starts. Outside production the demo needs nothing set: emails go to
 * DATA_DIR/mail and their links point at the address the app listens on. In production (NODE_ENV=production)
 * nothing is defaulted, so a missing SMTP_URL or PUBLIC_URL stops the services with a message naming it.
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import { testingAids } from '@puente/platform';

const production = (env: NodeJS.ProcessEnv) => env.NODE_ENV?.trim() === 'production';
const unset = (value: string | undefined) => !value?.trim();

/** 127.0.0.0/8, ::1 (also IPv4-mapped or bracketed) and localhost: reachable from this computer alone. */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

const isWildcard = (host: string) => ['', '0.0.0.0', '::', '[::]'].includes(host.trim());

/**
 * The address a browser on this computer opens for an app listening on host:port: http://localhost:<port> for a
 * loopback or every-interface host, else the host itself (an address of one interface, which localhost does not reach).
 */
export function appAddress(host: string, port: number): string {
  if (isWildcard(host) || isLoopback(host)) return `http://localhost:${port}`;
  const h = host.trim();
  return `http://${isIP(h) === 6 ? `[${h}]` : h}:${port}`;
}

/**
 * The settings the runners give the services when they are unset, outside production only: MAIL_DIR (emails as
 * .eml files in DATA_DIR/mail) and PUBLIC_URL (the links in emails: where the app listens).
 */
export function runnerDefaults(env: NodeJS.ProcessEnv, at: { dataDir: string; host: string; port: number }): { MAIL_DIR?: string; PUBLIC_URL?: string } {
  if (production(env)) return {};
  return {
    ...(unset(env.MAIL_DIR) ? { MAIL_DIR: join(at.dataDir, 'mail') } : {}),
    ...(unset(env.PUBLIC_URL) ? { PUBLIC_URL: appAddress(at.host, at.port) } : {}),
  };
}

/**
 * What the start banner says about the testing aids (packages/platform testingAids): each one that is on, in plain
 * words, and, when the app listens beyond this computer, a warning of what anyone who reaches it can do. Nothing
 * when every aid is off.
 */
export function testingAidsBanner(env: NodeJS.ProcessEnv, host: string, port: number): string[] {
  const aids = testingAids(env);
  const on: string[] = [];
  if (aids.testPayments) on.push('Test payments (PAYMENTS_TEST_MODE): the card 4242 4242 4242 4242 pays for Premium; no real money moves.');
  if (aids.verificationToken) {
    on.push('The sign-up verification token is shown on screen (EXPOSE_VERIFICATION_TOKEN): an email address is registered without opening its email.');
  }
  if (on.length === 0) return [];
  const lines = ['Testing aids are on, for trying Puente out:', ...on.map((line) => `  - ${line}`)];
  if (!isLoopback(host)) {
    const harms = [
      ...(aids.testPayments ? ['make themselves Premium for free'] : []),
      ...(aids.verificationToken ? ['register email addresses they do not own'] : []),
    ];
    lines.push(
      `WARNING: Puente listens on ${host}, beyond this computer: anyone who reaches port ${port} can ${harms.join(' and ')}.`,
      production(env)
        ? 'Turn the testing aids off (PAYMENTS_TEST_MODE=false, EXPOSE_VERIFICATION_TOKEN=false), or set HOST=127.0.0.1 to keep Puente to this computer.'
        : 'Set NODE_ENV=production (with SMTP_URL and PUBLIC_URL), or HOST=127.0.0.1 to keep Puente to this computer.',
    );
  }
  return lines;
}
