/** pino logging: one logger per process, children per service/request; secrets redacted at the source. */
import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths that must never reach a log line (passwords, tokens, cookies, bank details). */
export const redactPaths = [
  'password', '*.password', 'newPassword', '*.newPassword', 'currentPassword', '*.currentPassword',
  'token', '*.token', 'verificationToken', '*.verificationToken',
  'accountNumber', '*.accountNumber', 'sortCode', '*.sortCode', 'iban', '*.iban', 'rut', '*.rut',
  'req.headers.cookie', 'req.headers.authorization', 'req.headers["x-internal-token"]', 'res.headers["set-cookie"]',
];

export function createLogger(opts: { name: string; level?: string }): Logger {
  return pino({
    name: opts.name,
    level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: { svc: opts.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
