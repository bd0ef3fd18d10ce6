/**
 * The gateway's settings that both runners read the same way (server.ts in distributed mode, infra/embedded.ts):
 * origins, proxy trust, session lifetime and trust through a store outage, rate limits, the live channel's caps, admission
 * control (admission.ts) and the web root. Secrets, URLs and the bus are each
 * runner's own. gateway/README.md lists them all.
 */
import { z } from 'zod';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '@puente/platform';
import { defaultAdmissionLimits, type AdmissionLimits } from './admission.ts';
import { defaultLiveLimits, type LiveLimits } from './live.ts';
import { parseLimit, type Limit, type RateLimits } from './rate-limits.ts';

const limit = () => z.string().optional().transform((value, ctx): Limit | undefined => {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return parseLimit(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

/** A whole number above 0, its default when unset or blank (compose passes unset variables as ''). */
const count = (name: string, fallback: number) => z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.coerce.number().int(`${name} must be a whole number above 0`).positive(`${name} must be a whole number above 0`).default(fallback),
);

/**
 * TRUST_PROXY: unset, `false` or `0`, X-Forwarded-* is ignored; a hop count (`1`, `2`: the proxies in front, each
 * appending the address it was reached from); or the proxies' IPs or CIDR ranges, comma-separated (proxy-addr's
 * notation, which also takes `loopback` and `uniquelocal`). `true` is refused: a client writes the first hops of
 * X-Forwarded-For itself, so believing every hop lets it pass for any address it likes.
 */
const trustProxy = () => z.string().optional().transform((value, ctx): TrustProxy => {
  const setting = (value ?? '').trim();
  if (setting === '' || setting === 'false' || setting === '0') return false;
  if (setting === 'true') {
    ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY=true would trust client-written X-Forwarded-For hops: give the number of proxies in front (1, 2) or their addresses (10.0.0.5,10.1.0.0/16)' });
    return z.NEVER;
  }
  if (/^\d+$/.test(setting)) return Number(setting);
  const addresses = setting.split(',').map((a) => a.trim()).filter(Boolean);
  try {
    proxyAddr.compile(addresses);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: `TRUST_PROXY is a number of proxies (1, 2) or their IPs or CIDRs, comma-separated: ${(err as Error).message}` });
    return z.NEVER;
  }
  return addresses;
});

const SHARE = 'ADMISSION_EVENT_LOOP_UTILIZATION must be a share above 0 and at most 1, e.g. 0.9';

export const gatewaySettings = z.object({
  ALLOWED_ORIGINS: z.string().optional().transform((v) => (v ?? '').split(',').map((o) => o.trim()).filter(Boolean))
    .refine((origins) => origins.every((o) => /^https?:\/\/[^/]+\/?$/.test(o)), 'ALLOWED_ORIGINS must list origins like https://puente.example, comma-separated'),
  TRUST_PROXY: trustProxy(),
  SESSION_TTL_HOURS: z.coerce.number().positive('SESSION_TTL_HOURS must be a positive number of hours').default(168),
  SESSION_STALE_IF_ERROR_MINUTES: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().positive('SESSION_STALE_IF_ERROR_MINUTES must be a positive number of minutes').default(10)),
  RATE_LIMIT_LOGIN_ACCOUNT_IP: limit(),
  RATE_LIMIT_LOGIN_ACCOUNT: limit(),
  RATE_LIMIT_LOGIN_IP: limit(),
  RATE_LIMIT_SIGNUP_IP: limit(),
  RATE_LIMIT_REFERRAL_IP: limit(),
  RATE_LIMIT_RESET_IP: limit(),
  RATE_LIMIT_RESET_EMAIL: limit(),
  RATE_LIMIT_PASSWORD_CHECK_USER: limit(),
  RATE_LIMIT_CHAT_MESSAGE_USER: limit(),
  RATE_LIMIT_CHAT_ATTACHMENT_MATCH_USER: limit(),
  RATE_LIMIT_DISPUTE_USER: limit(),
  RATE_LIMIT_SUPPORT_REQUEST_USER: limit(),
  LIVE_SOCKETS_PER_USER: count('LIVE_SOCKETS_PER_USER', defaultLiveLimits.perUser),
  LIVE_SOCKETS_MAX: count('LIVE_SOCKETS_MAX', defaultLiveLimits.total),
  ADMISSION_CONCURRENCY: count('ADMISSION_CONCURRENCY', defaultAdmissionLimits.concurrency),
  ADMISSION_QUEUE_MS: count('ADMISSION_QUEUE_MS', defaultAdmissionLimits.queueMs),
  ADMISSION_EVENT_LOOP_UTILIZATION: z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number({ error: SHARE }).gt(0, SHARE).max(1, SHARE).optional()),
  WEB_ROOT: z.string().optional(),
});
export type GatewaySettings = z.infer<typeof gatewaySettings>;

/**
 * The options these settings give buildGateway: these fields of its GatewayOptions, declared here because app.ts
 * re-exports this module (so this one does not import it back).
 */
export interface SettingsOptions {
  allowedOrigins?: readonly string[];
  trustProxy?: TrustProxy;
  sessionTtlHours?: number;
  sessionStaleIfErrorMinutes?: number;
  rateLimits?: Partial<RateLimits>;
  liveLimits?: LiveLimits;
  admissionLimits?: AdmissionLimits;
  webRoot?: string;
}

/**
 * The gateway's listen queue: connections the kernel has completed and the process has yet to accept. Node's 511
 * overflowed when a crowd's connections came (1,000 a second, the bench's 2x surge) while the loop was busy: the
 * kernel drops what does not fit, and the browser's kernel sends it again only after 1 s, then 3 s, then 7 s, so
 * those users waited seconds for an answer the door would have given at once. The kernel caps it
 * (net.core.somaxconn: 4,096 on current Linux).
 */
export const LISTEN_BACKLOG = 4096;

/** The options these settings give buildGateway. */
export function gatewayOptionsFrom(s: GatewaySettings): SettingsOptions {
  const byLimit: Record<keyof RateLimits, Limit | undefined> = {
    loginFailuresPerAccountAndIp: s.RATE_LIMIT_LOGIN_ACCOUNT_IP,
    loginFailuresPerAccount: s.RATE_LIMIT_LOGIN_ACCOUNT,
    loginFailuresPerIp: s.RATE_LIMIT_LOGIN_IP,
    signupsPerIp: s.RATE_LIMIT_SIGNUP_IP,
    referralChecksPerIp: s.RATE_LIMIT_REFERRAL_IP,
    passwordResetsPerIp: s.RATE_LIMIT_RESET_IP,
    passwordResetsPerEmail: s.RATE_LIMIT_RESET_EMAIL,
    passwordChecksPerUser: s.RATE_LIMIT_PASSWORD_CHECK_USER,
    chatMessagesPerUser: s.RATE_LIMIT_CHAT_MESSAGE_USER,
    chatAttachmentsPerMatchAndUser: s.RATE_LIMIT_CHAT_ATTACHMENT_MATCH_USER,
    disputesPerUser: s.RATE_LIMIT_DISPUTE_USER,
    supportRequestsPerUser: s.RATE_LIMIT_SUPPORT_REQUEST_USER,
  };
  const rateLimits = Object.fromEntries(Object.entries(byLimit).filter(([, limit]) => limit)) as Partial<RateLimits>;
  return {
    allowedOrigins: s.ALLOWED_ORIGINS,
    trustProxy: s.TRUST_PROXY,
    sessionTtlHours: s.SESSION_TTL_HOURS,
    sessionStaleIfErrorMinutes: s.SESSION_STALE_IF_ERROR_MINUTES,
    rateLimits,
    liveLimits: { perUser: s.LIVE_SOCKETS_PER_USER, total: s.LIVE_SOCKETS_MAX },
    admissionLimits: { concurrency: s.ADMISSION_CONCURRENCY, queueMs: s.ADMISSION_QUEUE_MS,
      busyUtilization: s.ADMISSION_EVENT_LOOP_UTILIZATION },
    ...(s.WEB_ROOT ? { webRoot: s.WEB_ROOT } : {}),
  };
}
