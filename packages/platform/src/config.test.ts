import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, ServiceSettings } from './config.ts';

const required = {
  PORT: '3003', DATABASE_URL: 'postgres://puente@127.0.0.1:5432/puente', KAFKA_BROKERS: 'k1:9092,k2:9092',
  REDIS_URL: 'redis://127.0.0.1:6379', SERVICE_SIGNING_KEY: 'key', SERVICE_PUBLIC_KEYS: 'keys',
};

describe('the settings every service process reads: those of running several instances', () => {
  it('runs one instance by default: its own port, a 10 s outbox lease, a 30 s Kafka session and job lock', () => {
    expect(loadConfig(ServiceSettings, required)).toMatchObject({
      REUSE_PORT: false, OUTBOX_LEASE_MS: 10_000, KAFKA_SESSION_TIMEOUT_MS: 30_000, JOB_LOCK_MS: 30_000,
    });
  });

  it('reads the shared port and shorter take-over times an operator sets', () => {
    expect(loadConfig(ServiceSettings, {
      ...required, REUSE_PORT: 'true', OUTBOX_LEASE_MS: '2000', KAFKA_SESSION_TIMEOUT_MS: '6000', JOB_LOCK_MS: '5000',
    })).toMatchObject({ REUSE_PORT: true, OUTBOX_LEASE_MS: 2_000, KAFKA_SESSION_TIMEOUT_MS: 6_000, JOB_LOCK_MS: 5_000 });
  });

  it('refuses a take-over time that is not a whole number of milliseconds in range, naming the variable and the range', () => {
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(ServiceSettings, { ...required, ...env });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).message.split('\n').slice(1);
      }
      throw new Error('accepted');
    };
    expect(refused({ OUTBOX_LEASE_MS: '100', KAFKA_SESSION_TIMEOUT_MS: 'soon', JOB_LOCK_MS: '1500.5', REUSE_PORT: 'yes' })).toEqual([
      '  - KAFKA_SESSION_TIMEOUT_MS: KAFKA_SESSION_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 300000',
      '  - OUTBOX_LEASE_MS: OUTBOX_LEASE_MS must be a whole number of milliseconds from 500 to 300000',
      '  - JOB_LOCK_MS: JOB_LOCK_MS must be a whole number of milliseconds from 1000 to 600000',
      expect.stringMatching(/^ {2}- REUSE_PORT: /),
    ]);
  });
});
