/** pino logging: one logger per process, children per service/request; secrets redacted at the source. */
import { pino, type DestinationStream, type Logger } from 'pino';
import { traceLogFields, tracingStarted } from './observability/spans.ts';
import { redactUrl } from './observability/redacted-urls.ts';

export type { Logger };

/** Paths that must never reach a log line (passwords, tokens, cookies, bank details). */
export const redactPaths = [
  'password', '*.password', 'newPassword', '*.newPassword', 'currentPassword', '*.currentPassword',
  'token', '*.token', 'verificationToken', '*.verificationToken',
  'accountNumber', '*.accountNumber', 'sortCode', '*.sortCode', 'iban', '*.iban', 'rut', '*.rut',
  'req.headers.cookie', 'req.headers.authorization', 'req.headers["x-internal-token"]', 'res.headers["set-cookie"]',
];

/**
 * A process's logger; its lines go to stdout, unless a test reads them. Each line names its process (`name`) and,
 * in a service's own process, its service (`svc`); a process holding several (the embedded mode) leaves `svc` to
 * each service's child (serviceLogger), as a key bound twice is written twice, which strict JSON readers refuse.
 */
export function createLogger(opts: { name: string; svc?: string; level?: string; repeatWindowMs?: number; destination?: DestinationStream }): Logger {
  const repeatWindowMs = opts.repeatWindowMs ?? (Number(process.env.LOG_REPEAT_WINDOW_MS) || REPEAT_WINDOW_MS);
  return pino({
    name: opts.name,
    level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: urlSerializers,
    base: opts.svc ? { svc: opts.svc } : {},
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: { logMethod: collapseRepeats(repeatWindowMs) },
    // When tracing, each line written inside a span names its trace (trace_id), to find a trace's lines and back.
    ...(tracingStarted() ? { mixin: traceLogFields } : {}),
  }, opts.destination);
}

/** Within this long, a warning or error of one cause is written once (LOG_REPEAT_WINDOW_MS). */
export const REPEAT_WINDOW_MS = 10_000;
const WARN = 40;
/** Causes remembered at most (an outage has a handful; many distinct ones are no flood). */
const MAX_CAUSES = 1_000;

/**
 * A pino hook that writes a warning or error of one cause (its service, message and error) once per `windowMs`: the
 * same line again within it is counted, not written, and the next one after it carries `repeated`, the count. An
 * outage otherwise writes the same line from every retry and request, thousands a minute.
 */
export function collapseRepeats(windowMs: number): (this: Logger, args: unknown[], method: (...a: unknown[]) => void, level: number) => void {
  const seen = new Map<string, { until: number; repeated: number }>();
  return function collapse(this: Logger, args, method, level) {
    if (level < WARN || windowMs <= 0) { method.apply(this, args); return; }
    const [first, second] = args;
    const fields = typeof first === 'object' && first !== null ? first as Record<string, unknown> : undefined;
    const message = typeof first === 'string' ? first : typeof second === 'string' ? second : '';
    const key = `${String(this.bindings().svc ?? '')}\u0000${message}\u0000${causeOf(fields)}`;
    const now = Date.now();
    const entry = seen.get(key);
    if (entry && now < entry.until) { entry.repeated += 1; return; }
    if (seen.size >= MAX_CAUSES) seen.clear();
    seen.set(key, { until: now + windowMs, repeated: 0 });
    if (!entry?.repeated) { method.apply(this, args); return; }
    method.apply(this, fields ? [{ ...fields, repeated: entry.repeated }, ...args.slice(1)] : [{ repeated: entry.repeated }, ...args]);
  };
}

function causeOf(fields: Record<string, unknown> | undefined): string {
  const err = fields?.err;
  if (err instanceof Error) return `${(err as { code?: unknown }).code ?? ''} ${err.message}`.slice(0, 200);
  return typeof err === 'string' ? err.slice(0, 200) : '';
}

/** The logger of service `svc`: the process's own when it already names it, else a child that does. */
export function serviceLogger(processLogger: Logger, svc: string): Logger {
  return processLogger.bindings().svc === svc ? processLogger : processLogger.child({ svc });
}

/**
 * Every URL a line names, with its query's values redacted (redacted-urls.ts): Fastify's request lines (`req`, in
 * place of Fastify's own serializer, which writes the URL whole), @fastify/reply-from's upstream URL (`source`)
 * and any `url`.
 */
const urlSerializers = {
  req: (req: LoggedRequest) => ({
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    host: req.host,
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  }),
  source: urlOnly,
  url: urlOnly,
};

interface LoggedRequest { method?: string; url?: unknown; host?: string; ip?: string; socket?: { remoteAddress?: string; remotePort?: number } }

function urlOnly(value: unknown): unknown {
  return typeof value === 'string' ? redactUrl(value) : value;
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Parameters<Logger['child']>[0];
type ChildOptions = Parameters<Logger['child']>[1];
type Child = ReturnType<Logger['child']>;

/**
 * A request's logger, made only once something is logged at an enabled level. Fastify gives every request a child
 * of the process's logger, and a pino child (its bindings, its redaction) was a few percent of a polled request
 * that logs nothing at all.
 */
export class RequestLogger {
  private made: Child | undefined;
  private readonly parent: Logger;
  private readonly bindings: Bindings;
  private readonly options: ChildOptions;

  constructor(parent: Logger, bindings: Bindings, options?: ChildOptions) {
    this.parent = parent;
    this.bindings = bindings;
    this.options = options;
  }

  private get real(): Child {
    return this.made ??= this.parent.child(this.bindings, this.options);
  }

  get level(): string { return this.made?.level ?? this.parent.level; }
  set level(level: string) { this.real.level = level; }
  child(bindings: Bindings, options?: ChildOptions): Child { return this.real.child(bindings, options); }
  silent(): void {}
  fatal(...args: unknown[]): void { this.log('fatal', args); }
  error(...args: unknown[]): void { this.log('error', args); }
  warn(...args: unknown[]): void { this.log('warn', args); }
  info(...args: unknown[]): void { this.log('info', args); }
  debug(...args: unknown[]): void { this.log('debug', args); }
  trace(...args: unknown[]): void { this.log('trace', args); }

  private log(level: Level, args: unknown[]): void {
    if (this.made || this.parent.isLevelEnabled(level)) (this.real[level] as (...a: unknown[]) => void)(...args);
  }
}
