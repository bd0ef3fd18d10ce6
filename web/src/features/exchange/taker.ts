/**
 * What a request asks of whoever takes it, read for the viewer: the reason the server would refuse their accept
 * (checked in the same order), so the app explains it before they try.
 */
import { meetsTrustLevel, type CurrentUser, type ExchangeRequest } from '@puente/contracts';

export type TakerShortfall = 'verification' | 'trustLevel';

export function takerShortfall(
  request: Pick<ExchangeRequest, 'minTrustLevel' | 'verifiedOnly'>, user: Pick<CurrentUser, 'idVerified' | 'trustLevel'>,
): TakerShortfall | null {
  if (request.verifiedOnly && !user.idVerified) return 'verification';
  if (!meetsTrustLevel(user.trustLevel, request.minTrustLevel)) return 'trustLevel';
  return null;
}
