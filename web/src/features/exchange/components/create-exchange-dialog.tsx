/**
 * Create exchange request (spec sections 2, 5 and 8): the direction, the amount (default 500), the rate card, the
 * market rate prefilled with the option of one's own within the allowed band, the approximate receive amount as
 * one types, who may take it (a minimum trust level, verified users only), and the plan's limits with today's and
 * this month's usage. A limit refusal offers the upgrade.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ExchangeRequestCreate, MinTrustLevel, RATE_BAND_PERCENT, otherCurrency, rateBand, type Currency } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { formatCurrency, formatRate, parseAmount } from '../../../utils/format.ts';
import { useExchangeLimits, useExchangeRate } from '../api/rate.ts';
import { useCreateRequest } from '../api/requests.ts';
import { receiveAmount } from '../money.ts';
import { ExchangeRateCard } from './exchange-rate-card.tsx';
import { fieldText, isPlanLimitError, serverText } from '../../../lib/i18n.ts';

export const DEFAULT_AMOUNT = 500;

export function CreateExchangeDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated?: (id: number) => void }) {
  const { t } = useTranslation('exchange');
  const navigate = useNavigate();
  const rate = useExchangeRate();
  const limits = useExchangeLimits(open);
  const create = useCreateRequest();
  const [fromCurrency, setFromCurrency] = useState<Currency>('GBP');
  const [amount, setAmount] = useState(String(DEFAULT_AMOUNT));
  const [ownRate, setOwnRate] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [minTrustLevel, setMinTrustLevel] = useState<MinTrustLevel | ''>('');
  const [verifiedOnly, setVerifiedOnly] = useState(false);

  const market = rate.data?.gbpToClp;
  const band = market === undefined ? undefined : rateBand(String(market), RATE_BAND_PERCENT);
  const chosenRate = ownRate ?? (market === undefined ? '' : String(market));
  const receive = receiveAmount(fromCurrency, parseAmount(amount), chosenRate);
  const toCurrency = otherCurrency(fromCurrency);

  const submit = () => {
    const parsed = ExchangeRequestCreate.safeParse({
      fromCurrency, toCurrency, amount: amount.trim() === '' ? Number.NaN : parseAmount(amount), exchangeRate: Number(chosenRate),
      ...(minTrustLevel ? { minTrustLevel } : {}), ...(verifiedOnly ? { verifiedOnly } : {}),
    });
    if (!parsed.success) {
      const byField: Record<string, string> = {};
      for (const issue of parsed.error.issues) byField[String(issue.path[0])] ??= fieldText(issue.message);
      setErrors(byField);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (request) => {
        toast({ title: t('create.created'), description: t('create.createdText', { id: request.id }), variant: 'success' });
        onClose();
        onCreated?.(request.id);
      },
      onError: (error) => {
        const message = serverText(error);
        if (isPlanLimitError(error)) {
          toast({ title: t('create.limitReached'), description: message, variant: 'destructive', action: { label: t('create.upgrade'), onClick: () => { void navigate(paths.subscription); } } });
        } else {
          toast({ title: t('details.error'), description: t('create.failed', { message }), variant: 'destructive' });
        }
      },
    });
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="create-exchange-title">
      <DialogTitle id="create-exchange-title">{t('create.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <ExchangeRateCard />
          <TextField select label={t('create.direction')} value={fromCurrency} onChange={(e) => setFromCurrency(e.target.value as Currency)}>
            <MenuItem value="GBP">{t('create.gbpToClp')}</MenuItem>
            <MenuItem value="CLP">{t('create.clpToGbp')}</MenuItem>
          </TextField>
          <TextField
            label={t('create.amount', { currency: fromCurrency })}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            error={Boolean(errors.amount)}
            helperText={errors.amount ?? ' '}
          />
          <FormControlLabel
            control={<Switch checked={ownRate === null} onChange={(e) => setOwnRate(e.target.checked ? null : chosenRate)} />}
            label={t('create.useMarketRate')}
          />
          {ownRate === null ? null : (
            <TextField
              label={t('create.ownRate')}
              value={ownRate}
              onChange={(e) => setOwnRate(e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              error={Boolean(errors.exchangeRate)}
              helperText={errors.exchangeRate ?? (band ? t('create.rateBand', { low: formatRate(band.low), high: formatRate(band.high), percent: RATE_BAND_PERCENT }) : ' ')}
            />
          )}
          <TextField select label={t('create.minTrustLevel')} value={minTrustLevel} onChange={(e) => setMinTrustLevel(e.target.value as MinTrustLevel | '')}
            helperText={t('create.minTrustLevelHelp')} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}>
            <MenuItem value="">{t('create.anyone')}</MenuItem>
            {MinTrustLevel.options.map((level) => <MenuItem key={level} value={level}>{t('requirements.minLevel', { level })}</MenuItem>)}
          </TextField>
          <FormControlLabel
            control={<Switch checked={verifiedOnly} onChange={(e) => setVerifiedOnly(e.target.checked)} />}
            label={t('create.verifiedOnly')}
          />
          <Typography sx={{ fontWeight: 600 }} data-testid="receive-amount" aria-live="polite">
            {receive === null ? ' ' : t('create.youReceive', { amount: formatCurrency(receive, toCurrency) })}
          </Typography>
          {limits.data ? (
            <Typography variant="body2" color="text.secondary" data-testid="plan-limits">
              {t('create.limits', {
                tier: t(`common:plans.${limits.data.tier}`),
                maxGbp: formatCurrency(limits.data.maxPerExchange.GBP, 'GBP'), maxClp: formatCurrency(limits.data.maxPerExchange.CLP, 'CLP'),
                usedToday: limits.data.usedToday, perDay: limits.data.perDay, usedThisMonth: limits.data.usedThisMonth, perMonth: limits.data.perMonth,
              })}
            </Typography>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('create.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={create.isPending || market === undefined}>{t('create.submit')}</Button>
      </DialogActions>
    </Dialog>
  );
}
