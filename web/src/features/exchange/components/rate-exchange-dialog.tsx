/**
 * Rate exchange (spec sections 4, 5 and 9): 1-5 stars (default 4) with their words, an optional comment, once. When
 * the viewer is asked whether they received their money (the other party completed), the question comes above it.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Rating from '@mui/material/Rating';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast.tsx';
import { ApiError, isIdempotencyConflict } from '../../../lib/api-client.ts';
import { serverText } from '../../../lib/i18n.ts';
import { ratingWord } from '../../../utils/format.ts';
import type { ExchangeMatch } from '@puente/contracts';
import { useSubmitRating } from '../api/ratings.ts';
import { ReceiptQuestionCard } from './receipt.tsx';

export const DEFAULT_STARS = 4;

export function RateExchangeDialog({ matchId, partner, onClose, match, userId }: {
  matchId: number; partner: { id: number; name: string }; onClose: () => void;
  /** The match and the viewer, for the receipt question put to them (shown above the rating while open). */
  match?: ExchangeMatch; userId?: number;
}) {
  const { t } = useTranslation('exchange');
  const [stars, setStars] = useState(DEFAULT_STARS);
  const [comment, setComment] = useState('');
  const submit = useSubmitRating();
  // mutateAsync: the ratings' refresh can take the rate button (and this dialog) off screen first (mark-done-button.tsx).
  const send = () => {
    void submit.mutateAsync({ exchangeMatchId: matchId, toUserId: partner.id, rating: stars, ...(comment.trim() ? { comment } : {}) }).then(
      () => {
        toast({ title: t('rating.submitted'), description: t('rating.submittedText', { name: partner.name }), variant: 'success' });
        onClose();
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 409 && !isIdempotencyConflict(error)) {
          toast({ title: t('rating.alreadyRated'), description: t('rating.alreadyRatedText'), variant: 'destructive' });
          onClose();
        } else {
          toast({ title: t('details.error'), description: isIdempotencyConflict(error) ? serverText(error) : t('rating.failed'), variant: 'destructive' });
        }
      },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="rate-exchange-title">
      <DialogTitle id="rate-exchange-title">{t('rating.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {match && userId !== undefined ? <ReceiptQuestionCard match={match} userId={userId} partnerName={partner.name} /> : null}
          <Typography>{t('rating.intro', { name: partner.name })}</Typography>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <Rating name="stars" value={stars} onChange={(_e, value) => setStars(value ?? DEFAULT_STARS)} aria-label={t('rating.stars')} />
            <Typography data-testid="rating-word">{ratingWord(stars)}</Typography>
          </Stack>
          <TextField label={t('rating.comment')} value={comment} onChange={(e) => setComment(e.target.value)} multiline minRows={2} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('rating.later')}</Button>
        <Button variant="contained" onClick={send} disabled={submit.isPending}>{t('rating.submit')}</Button>
      </DialogActions>
    </Dialog>
  );
}
