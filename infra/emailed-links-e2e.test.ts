/**
 * No secret of a URL in a log line or a span (distributed: every process logs at debug and exports its spans by
 * OTLP to a receiver here). A visitor signs up and opens the verification email's link, asks for a password reset
 * and opens that email's link, each page through the gateway, and posts each token as the page does; an older link
 * (`?token=…`, as emails carried it before) is opened too, and a Google callback comes back with a code and a state.
 * None of those values is in any line any process wrote, nor in any span's name or attributes. The lines and spans of
 * the older link and of the callback are there, with the query's names and REDACTED for each value.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { appClient, describeWithInfra, mailsIn, type AppClient } from '@puente/testkit';
import { startDistributedApp, type RunningTestApp, showOutputOnFailure } from './testing/running-app.ts';
import { startOtlpReceiver, type OtlpReceiver } from './testing/otlp-receiver.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'LINKS-CODE' };
const SPAN_KIND = { server: 2, client: 3 };
const ana = { email: 'ana@puente.test', password: 'Ana-password-1', firstName: 'Ana', lastName: 'Diaz' };
// What Google would send back: values no process may write down.
const googleCode = `4/0Agoogle-${randomBytes(12).toString('hex')}`;
const googleState = `state-${randomBytes(12).toString('hex')}`;

describeWithInfra(['postgres', 'redis', 'kafka'], 'emailed links and the Google callback: no secret of a URL in a log line or a span', () => {
  let receiver: OtlpReceiver;
  let app: RunningTestApp;
  let client: AppClient;
  const folders = { mail: mkdtempSync(join(tmpdir(), 'puente-links-mail-')), web: mkdtempSync(join(tmpdir(), 'puente-links-web-')) };

  beforeAll(async () => {
    // The web app's page as the gateway serves it (any path outside /api: the SPA fallback).
    writeFileSync(join(folders.web, 'index.html'), '<!doctype html><title>Puente</title>');
    receiver = await startOtlpReceiver();
    app = await startDistributedApp('emailed-links-e2e', {
      ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
      BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, MAIL_DIR: folders.mail, WEB_ROOT: folders.web,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200', LOG_LEVEL: 'debug',
    });
    client = appClient(app.url);
  }, 150_000);
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
    for (const folder of Object.values(folders)) rmSync(folder, { recursive: true, force: true });
  }, 60_000);
  showOutputOnFailure(() => app);

  /** The email of a kind to Ana once it is written, and its link's page and token (in the fragment). */
  async function emailed(kind: string, page: string): Promise<{ path: string; token: string }> {
    const text = await vi.waitFor(async () => {
      const mail = (await mailsIn(folders.mail)).find((m) => m.to === ana.email && m.kind === kind);
      expect(mail).toBeDefined();
      return mail!.text;
    }, { timeout: 15_000, interval: 100 });
    const link = new RegExp(`https?://[^/\\s]+(/${page})#token=([\\w-]{43})`).exec(text);
    expect(link, text).not.toBeNull();
    return { path: link![1]!, token: link![2]! };
  }

  /** Opens a page through the gateway as a browser does: a GET of the address without its fragment. */
  async function open(path: string): Promise<void> {
    const res = await fetch(`${app.url}${path}`);
    expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, 'text/html; charset=utf-8']);
  }

  it('keeps the tokens of both emailed links, and Google\'s code and state, out of every log line and span', async () => {
    await client.json('/api/signup/request', 201, { body: { ...ana, referralCode: ADMIN.code } });
    const verification = await emailed('verification', 'verify-email');
    await open(verification.path);
    await client.json('/api/signup/verify', 200, { body: { token: verification.token } });

    await client.json('/api/auth/forgot-password', 200, { body: { email: ana.email } });
    const reset = await emailed('password-reset', 'reset-password');
    await open(reset.path);
    await client.json('/api/auth/reset-password', 200, { body: { token: reset.token, password: 'Ana-password-2' } });
    await client.json('/api/auth/login', 200, { body: { email: ana.email, password: 'Ana-password-2' } });

    // A link in the form emails had before: its token is in the query the gateway receives.
    await open(`/reset-password?token=${reset.token}`);
    // Back from Google, through the gateway to identity (which refuses it: there is no sign-in under way).
    const callback = await fetch(`${app.url}/api/auth/google/callback?code=${encodeURIComponent(googleCode)}&state=${googleState}`, { redirect: 'manual' });
    expect(callback.status).toBeLessThan(500);

    // The spans of both requests (the gateway's, its call to identity, identity's), once exported.
    const spans = await vi.waitFor(() => {
      const all = receiver.spans();
      const callbackSpans = all.filter((s) => String(s.attributes['url.path'] ?? s.attributes['url.full']).includes('/auth/google/callback'));
      expect(callbackSpans.map((s) => `${s.service} ${s.kind}`).sort()).toEqual([`gateway ${SPAN_KIND.server}`, `gateway ${SPAN_KIND.client}`, `identity ${SPAN_KIND.server}`]);
      expect(all.some((s) => s.service === 'gateway' && s.attributes['url.query'] === 'token=REDACTED')).toBe(true);
      return all;
    }, { timeout: 30_000, interval: 200 });
    const callbackSpan = (service: string, kind: number) => spans.find((s) => s.service === service && s.kind === kind && String(s.attributes['url.path'] ?? s.attributes['url.full']).includes('/auth/google/callback'))!;
    expect(callbackSpan('gateway', SPAN_KIND.server).attributes['url.query']).toBe('code=REDACTED&state=REDACTED');
    expect(callbackSpan('gateway', SPAN_KIND.client).attributes['url.full']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\/google\/callback\?code=REDACTED&state=REDACTED$/);
    expect(callbackSpan('identity', SPAN_KIND.server).attributes['url.query']).toBe('code=REDACTED&state=REDACTED');

    const log = app.log();
    // Every request is in the log (debug), the callback's and the older link's with their values redacted...
    const requested = requestLines(log);
    expect(requested).toEqual(expect.arrayContaining([
      `gateway GET ${verification.path}`, `gateway GET ${reset.path}`, 'gateway GET /reset-password?token=REDACTED',
      'gateway GET /api/auth/google/callback?code=REDACTED&state=REDACTED', 'identity GET /auth/google/callback?code=REDACTED&state=REDACTED',
      'gateway POST /api/auth/reset-password', 'identity POST /auth/reset-password', 'identity POST /signup/verify',
    ]));
    // ...and no secret in any line or span.
    const exported = JSON.stringify(spans.map((s) => [s.name, s.attributes]));
    for (const secret of [verification.token, reset.token, googleCode, encodeURIComponent(googleCode), googleState]) {
      expect(log.filter((line) => line.includes(secret)), 'log lines with a secret').toEqual([]);
      expect(exported.includes(secret), 'a span with a secret').toBe(false);
    }
    expect(receiver.refused()).toEqual([]);
  }, 150_000);
});

/** `<process> <method> <url>` of each request line (`request completed`) the processes wrote. */
function requestLines(log: string[]): string[] {
  return log.flatMap((line) => {
    const [, process, json] = /^\[([\w-]+)\] (\{.*\})$/.exec(line) ?? [];
    if (!json) return [];
    const entry = JSON.parse(json) as { msg?: string; req?: { method?: string; url?: string } };
    return entry.msg === 'request completed' ? [`${process} ${entry.req?.method} ${entry.req?.url}`] : [];
  });
}

