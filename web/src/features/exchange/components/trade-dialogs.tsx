/**
 * The dialogs of a trade, and when they open by themselves: the details of `?requestId=`; the bank details once per
 * user and match when a match becomes confirmed (from the live match_success refresh or the next poll; remembered
 * across reloads); the rating dialog on the screen of the party who marked the exchange completed, and once for the
 * counterpart as soon as their matches show it completed (if they have not rated yet), with the receipt question above
 * it when the counterpart is asked whether they received their money. Mounted once by the app shell while signed in,
 * so all of these open on whatever page the user is on.
 */
import { useEffect, useState } from 'react';
import { Routes, type CurrentUser, type ExchangeMatch } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { useMatches } from '../api/matches.ts';
import { ExchangeDetailsDialog, type DetailsNext } from './exchange-details-dialog.tsx';
import { MatchConfirmedDialog } from './match-confirmed-dialog.tsx';
import { RateExchangeDialog } from './rate-exchange-dialog.tsx';

type Partner = { id: number; name: string };

/** Match ids a user has been shown something for, kept in localStorage under `key:userId`. */
function remembered(key: string, userId: number) {
  const storageKey = `${key}:${userId}`;
  const read = (): number[] => {
    try {
      const value: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
      return Array.isArray(value) ? value.filter((x): x is number => typeof x === 'number') : [];
    } catch {
      return [];
    }
  };
  return {
    has: (matchId: number) => read().includes(matchId),
    add: (matchId: number) => {
      try {
        localStorage.setItem(storageKey, JSON.stringify([...read().filter((x) => x !== matchId), matchId].slice(-200)));
      } catch {
        // Storage refused (private mode): the dialog may open again after a reload.
      }
    },
  };
}

export const BANK_DETAILS_SHOWN = 'puente-bank-details-shown';
export const RATING_OFFERED = 'puente-rating-offered';

const partnerOf = (match: ExchangeMatch, userId: number, requesterName: string): Partner =>
  match.matchedById === userId ? { id: match.exchangeRequest.userId, name: requesterName } : { id: match.matchedById, name: match.matcherName };

export function TradeDialogs({ user, requestId, onCloseRequest, posterAction }: {
  user: CurrentUser; requestId: string | null; onCloseRequest: () => void;
  /** An action on the poster of someone else's request in its details (the route's Block). */
  posterAction?: DetailsNext['posterAction'];
}) {
  const [bankFor, setBankFor] = useState<number | null>(null);
  const [rating, setRating] = useState<{ matchId: number; partner: Partner } | null>(null);
  const matches = useMatches();
  const shown = remembered(BANK_DETAILS_SHOWN, user.id);
  const offered = remembered(RATING_OFFERED, user.id);

  const openBank = (matchId: number) => { shown.add(matchId); setBankFor(matchId); };
  const openRating = (matchId: number, partner: Partner) => { offered.add(matchId); setRating({ matchId, partner }); };

  useEffect(() => {
    if (bankFor !== null || rating !== null) return;
    const confirmed = matches.data?.find((m) => m.status === 'confirmed' && !shown.has(m.id));
    if (confirmed) { openBank(confirmed.id); return; }
    const completed = matches.data?.find((m) => m.status === 'completed' && !offered.has(m.id));
    if (!completed) return;
    offered.add(completed.id);
    // Offer the rating only if this user has not rated yet; the partner's name comes with the request.
    void Promise.all([
      call(Routes.rating.forMatch, { params: { exchangeMatchId: completed.id } }),
      completed.matchedById === user.id ? call(Routes.exchange.request, { params: { id: completed.exchangeRequestId } }) : Promise.resolve(null),
    ]).then(([ratings, request]) => {
      if (ratings.some((r) => r.fromUserId === user.id)) return;
      const requesterName = request ? `${request.user.firstName} ${request.user.lastName}` : '';
      setRating({ matchId: completed.id, partner: partnerOf(completed, user.id, requesterName) });
    }).catch(() => { /* offered again only by the Rate Exchange button */ });
  });

  const ratedMatch = rating ? matches.data?.find((m) => m.id === rating.matchId) : undefined;
  const next: DetailsNext = {
    bankDetails: (match) => openBank(match.id),
    rate: (match, partner) => openRating(match.id, partner),
    ...(posterAction ? { posterAction } : {}),
  };
  return (
    <>
      {requestId !== null && bankFor === null && rating === null ? <ExchangeDetailsDialog rawId={requestId} user={user} onClose={onCloseRequest} next={next} /> : null}
      {bankFor !== null ? <MatchConfirmedDialog matchId={bankFor} onClose={() => setBankFor(null)} /> : null}
      {rating ? (
        <RateExchangeDialog
          matchId={rating.matchId} partner={rating.partner} onClose={() => setRating(null)} userId={user.id}
          {...(ratedMatch ? { match: ratedMatch } : {})}
        />
      ) : null}
    </>
  );
}
