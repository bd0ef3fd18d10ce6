/**
 * What every kafkajs client of the bus shares: its configuration (short timeouts, so an unreachable cluster is noticed
 * within seconds), its logging through pino, and the timing helpers the bus and its subscriptions use.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import kafkajs from 'kafkajs';
import type { KafkaConfig, LogEntry } from 'kafkajs';
import type { Logger } from 'pino';

const { logLevel } = kafkajs;

/** A client that gives up within seconds (the outbox relay and the subscriptions retry on their own). */
export function clientConfig(brokers: string[], clientId: string, logger: Logger | undefined, socketFactory: unknown): KafkaConfig {
  return {
    clientId,
    brokers,
    connectionTimeout: 2_000,
    requestTimeout: 5_000,
    retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2_000 },
    ...(socketFactory ? { socketFactory: socketFactory as KafkaConfig['socketFactory'] } : {}),
    ...(logger
      ? { logLevel: logLevel.INFO, logCreator: pinoLogCreator(logger.child({ component: 'kafkajs' })) }
      : { logLevel: logLevel.NOTHING }),
  };
}

/** kafkajs logs through pino: its info is chatty (joins, starts), so it goes to debug. */
export function pinoLogCreator(logger: Logger): KafkaConfig['logCreator'] {
  return () => ({ namespace, level, log }: LogEntry) => {
    const { message, timestamp: _timestamp, ...extra } = log;
    const fields = { namespace, ...extra };
    if (level === logLevel.ERROR) logger.error(fields, message);
    else if (level === logLevel.WARN) logger.warn(fields, message);
    else if (level === logLevel.INFO) logger.debug(fields, message);
    else logger.trace(fields, message);
  };
}

/**
 * 'done' once work resolves, 'aborted' as soon as the signal fires (work keeps running, abandoned). Not a timer, so
 * node:timers/promises has no counterpart: it resolves (not rejects) on abort and drops its listener when work ends.
 */
export function unlessAborted(work: Promise<void>, signal: AbortSignal): Promise<'done' | 'aborted'> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      work.catch(() => {});
      resolve('aborted');
      return;
    }
    const onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      () => { signal.removeEventListener('abort', onAbort); resolve('done'); },
      (err: unknown) => { signal.removeEventListener('abort', onAbort); reject(err); },
    );
  });
}

/** work's outcome, or a rejection with message once ms have passed (work is then abandoned). */
export function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  const settled = new AbortController(); // clears the timer once work settles first
  const deadline = sleep(ms, undefined, { signal: settled.signal }).then(() => { throw new Error(message); });
  work.catch(() => {}); // a send that fails after the deadline must not become an unhandled rejection
  return Promise.race([work, deadline]).finally(() => settled.abort());
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
