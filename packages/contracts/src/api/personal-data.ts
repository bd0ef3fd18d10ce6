/**
 * A user's data download (GET /api/users/me/data, UK GDPR): one JSON document with a section per service, each the
 * schema its service answers identity's internal call with.
 */
import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';
import { IdentityPersonalData } from './identity-personal-data.ts';
import { AccountsPersonalData } from './accounts.ts';
import { ExchangePersonalData } from './exchange-personal-data.ts';
import { RatingPersonalData } from './rating.ts';
import { NotificationPersonalData } from './notification.ts';
import { SubscriptionPersonalData } from './subscription.ts';
import { AuditPersonalData } from './audit.ts';

export const PersonalDataExport = z.object({
  userId: Id,
  exportedAt: IsoDateTime,
  identity: IdentityPersonalData,
  accounts: AccountsPersonalData,
  exchange: ExchangePersonalData,
  rating: RatingPersonalData,
  notification: NotificationPersonalData,
  subscription: SubscriptionPersonalData,
  audit: AuditPersonalData,
});
export type PersonalDataExport = z.infer<typeof PersonalDataExport>;
