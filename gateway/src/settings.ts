/**
 * The gateway's settings that both runners read the same way (server.ts in distributed mode, infra/embedded.ts):
 * origins, proxy trust, session lifetime, rate limits and the web root. Secrets, URLs and the bus are each
 * runner's own. gateway/README.md lists them all.
 */
import { z } from 'zod';
import { parseLimit, type Limit, type RateLimits } from './rate-limits.ts';
import type { GatewayOptions } from './app.ts';

const limit = () => z.string().optional().transform((value, ctx): Limit | undefined => {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return parseLimit(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

export const gatewaySettings = z.object({
  ALLOWED_ORIGINS: z.string().optional().transform((v) => (v ?? '').split(',').map((o) => o.trim()).filter(Boolean))
    .refine((origins) => origins.every((o) => /^https?:\/\/[^/]+\/?$/.test(o)), 'ALLOWED_ORIGINS must list origins like https://puente.example, comma-separated'),
  TRUST_PROXY: z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  SESSION_TTL_HOURS: z.coerce.number().positive('SESSION_TTL_HOURS must be a positive number of hours').default(168),
  RATE_LIMIT_LOGIN_ACCOUNT_IP: limit(),
  RATE_LIMIT_LOGIN_ACCOUNT: limit(),
  RATE_LIMIT_LOGIN_IP: limit(),
  RATE_LIMIT_SIGNUP_IP: limit(),
  RATE_LIMIT_REFERRAL_IP: limit(),
  RATE_LIMIT_RESET_IP: limit(),
  RATE_LIMIT_RESET_EMAIL: limit(),
  RATE_LIMIT_PASSWORD_CHECK_USER: limit(),
  WEB_ROOT: z.string().optional(),
});
export type GatewaySettings = z.infer<typeof gatewaySettings>;

/** The options these settings give buildGateway. */
export function gatewayOptionsFrom(s: GatewaySettings): Pick<GatewayOptions, 'allowedOrigins' | 'trustProxy' | 'sessionTtlHours' | 'rateLimits' | 'webRoot'> {
  const byLimit: Record<keyof RateLimits, Limit | undefined> = {
    loginFailuresPerAccountAndIp: s.RATE_LIMIT_LOGIN_ACCOUNT_IP,
    loginFailuresPerAccount: s.RATE_LIMIT_LOGIN_ACCOUNT,
    loginFailuresPerIp: s.RATE_LIMIT_LOGIN_IP,
    signupsPerIp: s.RATE_LIMIT_SIGNUP_IP,
    referralChecksPerIp: s.RATE_LIMIT_REFERRAL_IP,
    passwordResetsPerIp: s.RATE_LIMIT_RESET_IP,
    passwordResetsPerEmail: s.RATE_LIMIT_RESET_EMAIL,
    passwordChecksPerUser: s.RATE_LIMIT_PASSWORD_CHECK_USER,
  };
  const rateLimits = Object.fromEntries(Object.entries(byLimit).filter(([, limit]) => limit)) as Partial<RateLimits>;
  return {
    allowedOrigins: s.ALLOWED_ORIGINS,
    trustProxy: s.TRUST_PROXY,
    sessionTtlHours: s.SESSION_TTL_HOURS,
    rateLimits,
    ...(s.WEB_ROOT ? { webRoot: s.WEB_ROOT } : {}),
  };
}
