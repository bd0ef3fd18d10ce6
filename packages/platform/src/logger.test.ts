import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { createHttpApp } from './http/app.ts';
import { createLogger, redactPaths, REPEAT_WINDOW_MS, serviceLogger } from './logger.ts';

/** A logger at `level` whose lines land in `lines`, redacting as createLogger's do. */
function capturing(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  return { lines, logger: pino({ level, redact: { paths: redactPaths, censor: '[redacted]' } }, stream) };
}

describe('request loggers', () => {
  it('write nothing below the level, and at it a line with the request id, secrets redacted', async () => {
    const { lines, logger } = capturing('warn');
    const app = createHttpApp({ logger });
    app.get('/quiet', async (request) => { request.log.info('not written'); return {}; });
    app.get('/loud', async (request) => { request.log.warn({ password: 'hunter2', ok: true }, 'written'); return {}; });
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(lines).toEqual([]);
    await app.inject({ method: 'GET', url: '/loud', headers: { 'x-request-id': 'req-7' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'written', reqId: 'req-7', password: '[redacted]', ok: true });
    await app.close();
  });
});

describe('request lines', () => {
  it('are one a request at the gateway, and at a service (at info) only for a failure', async () => {
    const lined = () => {
      const lines: Record<string, unknown>[] = [];
      return { lines, logger: createLogger({ name: 'http', level: 'info', destination: { write: (line: string) => { lines.push(JSON.parse(line)); } } }) };
    };
    const gateway = lined();
    const service = lined();
    const apps = [createHttpApp({ logger: gateway.logger, requestLog: 'each' }), createHttpApp({ logger: service.logger })];
    for (const app of apps) {
      app.get('/ok', async () => ({}));
      app.get('/broken', async () => { throw new Error('the database went away'); });
      await app.inject({ method: 'GET', url: '/ok?token=t0k3n' });
      await app.inject({ method: 'GET', url: '/broken' });
      await app.close();
    }
    const requestLines = (lines: Record<string, unknown>[]) => lines.filter((l) => l.responseTime !== undefined).map((l) => [l.msg, (l.res as { statusCode: number }).statusCode]);
    expect(requestLines(gateway.lines)).toEqual([['request completed', 200], ['request failed', 500]]);
    expect(requestLines(service.lines)).toEqual([['request failed', 500]]);
    expect(JSON.stringify(gateway.lines)).not.toContain('t0k3n');
  });
});

describe('URLs in log lines', () => {
  it('keep the path and the parameter names, with every query value redacted and no fragment', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ name: 'urls', level: 'info', destination: { write: (line: string) => { lines.push(JSON.parse(line)); } } });
    logger.info({ url: '/reset-password?token=t0k3n#token=t0k3n', source: '/auth/google/callback?code=c0d3&state=st4te' }, 'called');
    expect(lines[0]).toMatchObject({ url: '/reset-password?token=REDACTED', source: '/auth/google/callback?code=REDACTED&state=REDACTED' });
    expect(JSON.stringify(lines)).not.toMatch(/t0k3n|c0d3|st4te/);
  });
});

describe('service names in log lines', () => {
  /** The raw lines, as a strict JSON reader sees them: JSON.parse would keep the last of two keys silently. */
  function rawLines(opts: { name: string; svc?: string }) {
    const lines: string[] = [];
    return { lines, logger: createLogger({ ...opts, level: 'info', destination: { write: (line: string) => { lines.push(line); } } }) };
  }
  const svcKeys = (line: string) => line.match(/"svc":/g)?.length ?? 0;

  it('name a service once in its own process, and once per service in a process holding several', () => {
    const own = rawLines({ name: 'exchange', svc: 'exchange' });
    serviceLogger(own.logger, 'exchange').info('alone');
    expect(own.lines.map(svcKeys)).toEqual([1]);
    expect(JSON.parse(own.lines[0]!)).toMatchObject({ name: 'exchange', svc: 'exchange', msg: 'alone' });

    const embedded = rawLines({ name: 'puente' });
    embedded.logger.info('the process');
    serviceLogger(embedded.logger, 'identity').info('a service');
    expect(embedded.lines.map(svcKeys)).toEqual([0, 1]);
    expect(JSON.parse(embedded.lines[1]!)).toMatchObject({ name: 'puente', svc: 'identity' });
  });
});

describe('repeated warnings and errors', () => {
  it('are written once per cause and window, the next one saying how many were not written', () => {
    vi.useFakeTimers();
    try {
      const lines: Record<string, unknown>[] = [];
      const logger = createLogger({ name: 'outage', svc: 'exchange', level: 'info', destination: { write: (line: string) => { lines.push(JSON.parse(line)); } } });
      const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9092'), { code: 'ECONNREFUSED' });
      for (let i = 0; i < 50; i++) logger.warn({ err: refused }, 'kafka is not reachable');
      logger.error({ err: new Error('timeout') }, 'kafka is not reachable'); // another cause: its own line
      for (let i = 0; i < 3; i++) logger.info('polled'); // info is never collapsed
      vi.advanceTimersByTime(REPEAT_WINDOW_MS);
      logger.warn({ err: refused }, 'kafka is not reachable');
      expect(lines.map((l) => [l.msg, l.repeated])).toEqual([
        ['kafka is not reachable', undefined], ['kafka is not reachable', undefined],
        ['polled', undefined], ['polled', undefined], ['polled', undefined],
        ['kafka is not reachable', 49],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
