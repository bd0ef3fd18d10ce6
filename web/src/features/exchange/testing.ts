/** Contract-valid bodies for the exchange's component tests. */
import { ExchangeMatch, ExchangeRequest, MatchAccountsResponse } from '@puente/contracts';

export function makeRequest(overrides: Partial<ExchangeRequest> = {}): ExchangeRequest {
  return ExchangeRequest.parse({
    id: 42, userId: 9, fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275.5, status: 'open',
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    user: { firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, trustRating: 4.5, transactionCount: 3, completionRate: 100, averageCompletionMinutes: 30, memberSince: '2026-01-01T00:00:00.000Z' },
    ...overrides,
  });
}

export function makeMatch(request: ExchangeRequest, overrides: Partial<ExchangeMatch> = {}): ExchangeMatch {
  const { user: _poster, ...summary } = request;
  return ExchangeMatch.parse({
    id: 5, exchangeRequestId: request.id, matchedById: 7, matcherName: 'Ana Rojas', status: 'pending',
    createdAt: new Date().toISOString(), exchangeRequest: summary, paidByIds: [], confirmedAt: null, payments: [], receipts: [], completedAt: null, completedById: null, receiptQuestion: null, ...overrides,
  });
}

/**
 * Bank details of the match on Bea's £100 GBP → CLP request: the requester (Bea) receives pesos into her CLP account
 * and sends pounds to the matcher's GBP account; the matcher (Ana) the other way round.
 */
export function makeMatchAccounts(isRequestor: boolean): MatchAccountsResponse {
  const gbp = { id: 1, currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', sortCode: '040004', rut: null, accountType: null, email: null, iban: null, holderMatchesName: true };
  const clp = { id: 2, currency: 'CLP', bankName: 'BancoEstado', accountNumber: '00123456789', rut: '12345678-5', accountType: 'vista', email: 'bea@example.cl', sortCode: null, iban: null, holderMatchesName: true };
  return MatchAccountsResponse.parse({
    exchangeDetails: { id: 42, amount: 100, exchangeRate: 1275.5, fromCurrency: 'GBP', toCurrency: 'CLP', status: 'confirmed' },
    myAccount: isRequestor ? { ...clp, accountHolder: 'Bea Soto' } : { ...gbp, accountHolder: 'Ana Rojas' },
    partnerAccount: isRequestor ? { ...gbp, accountHolder: 'Ana Rojas' } : { ...clp, accountHolder: 'Bea Soto' },
    partnerDetails: isRequestor
      ? { firstName: 'Ana', lastName: 'Rojas', profileImageUrl: null, verificationLevel: 'partial', transactionCount: 1, trustRating: null }
      : { firstName: 'Bea', lastName: 'Soto', profileImageUrl: null, verificationLevel: 'partial', transactionCount: 3, trustRating: 4.5 },
    isRequestor,
    // The partner pays from their account in the currency the caller receives, in their own name.
    expectedPayer: { accountHolder: isRequestor ? 'Ana Rojas' : 'Bea Soto', holderMatchesName: true },
  });
}
