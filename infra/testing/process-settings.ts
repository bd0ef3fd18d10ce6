/**
 * Each process's own settings schema (a service's besides ServiceSettings, which every service reads), loaded as its
 * src/server.ts loads it: the deployment tests (compose, k8s) check that what they give each process starts it.
 */
import type { ServiceName } from '@puente/contracts';
import { loadConfig } from '@puente/platform';
import { gatewaySettings } from '@puente/gateway';
import { IdentitySettings } from '@puente/identity';
import { AccountsSettings } from '@puente/accounts';
import { ExchangeSettings } from '@puente/exchange';
import { RatingSettings } from '@puente/rating';
import { NotificationSettings } from '@puente/notification';
import { SubscriptionSettings } from '@puente/subscription';
import { AuditSettings } from '@puente/audit';

type LoadSettings = (env: NodeJS.ProcessEnv) => unknown;

export const SERVICE_SETTINGS: Record<ServiceName, LoadSettings> = {
  identity: (env) => loadConfig(IdentitySettings, env),
  accounts: (env) => loadConfig(AccountsSettings, env),
  exchange: (env) => loadConfig(ExchangeSettings, env),
  rating: (env) => loadConfig(RatingSettings, env),
  notification: (env) => loadConfig(NotificationSettings, env),
  subscription: (env) => loadConfig(SubscriptionSettings, env),
  audit: (env) => loadConfig(AuditSettings, env),
};

export const PROCESS_SETTINGS: Record<ServiceName | 'gateway', LoadSettings> = {
  gateway: (env) => loadConfig(gatewaySettings, env),
  ...SERVICE_SETTINGS,
};
