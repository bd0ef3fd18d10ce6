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
export function createLogger(opts: { name: string; svc?: string; level?: string; destination?: DestinationStream }): Logger {
  return pino({
    name: opts.name,
    level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: urlSerializers,
    base: opts.svc ? { svc: opts.svc } : {},
    timestamp: pino.stdTimeFunctions.isoTime,
    // When tracing, each line written inside a span names its trace (trace_id), to find a trace's lines and back.
    ...(tracingStarted() ? { mixin: traceLogFields } : {}),
  }, opts.destination);
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
