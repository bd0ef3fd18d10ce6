/** Every service definition, as the embedded runner and the scripts start them. */
import type { ServiceName } from '@puente/contracts';
import { loadConfig, type ServiceDefinition } from '@puente/platform';
import { identityService, IdentitySettings } from '@puente/identity';
import { accountsService, AccountsSettings } from '@puente/accounts';
import { exchangeService, ExchangeSettings } from '@puente/exchange';
import { ratingService, RatingSettings } from '@puente/rating';
import { notificationService, NotificationSettings } from '@puente/notification';
import { subscriptionService, SubscriptionSettings } from '@puente/subscription';
import { auditService, AuditSettings } from '@puente/audit';

export function serviceDefinitions(env: NodeJS.ProcessEnv = process.env, opts: { printAdmin?: (line: string) => void } = {}): Record<ServiceName, ServiceDefinition> {
  return {
    identity: identityService(loadConfig(IdentitySettings, env), opts),
    accounts: accountsService(loadConfig(AccountsSettings, env)),
    exchange: exchangeService(loadConfig(ExchangeSettings, env)),
    rating: ratingService(loadConfig(RatingSettings, env)),
    notification: notificationService(loadConfig(NotificationSettings, env)),
    subscription: subscriptionService(loadConfig(SubscriptionSettings, env)),
    audit: auditService(loadConfig(AuditSettings, env)),
  };
}
