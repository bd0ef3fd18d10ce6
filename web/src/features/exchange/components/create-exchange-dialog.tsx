/**
 * Create exchange request (spec sections 2, 5 and 8): the direction, the amount (default 500), the rate card, the
 * market rate prefilled with the option of one's own within the allowed band, what the user pays and (the spec's
 * approximate receive amount) receives as one types, who may take it (a minimum trust level, verified users only),
 * and the plan's limits with today's and this month's usage. The service's rules are checked as one types: a rate
 * outside the band, and the plan's size per exchange and exchanges per day and month (inline under 'Subscription
 * Limit Reached' with 'Upgrade'), each saying by how much; meanwhile the receive amount is struck through. The server
 * still has the last word: its refusal raises the spec's toast (a limit's with Upgrade).
 */
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
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
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ExchangeRequestCreate, MinTrustLevel, RATE_BAND_PERCENT, otherCurrency, rateBand, type Currency, type ExchangeLimits } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { formatCurrency, formatDateTime, formatRate, parseAmount } from '../../../utils/format.ts';
import { useExchangeLimits, useExchangeRate } from '../api/rate.ts';
import { useCreateRequest } from '../api/requests.ts';
import { isPlanRefusal, receiveAmount, requestRefusals, type RequestRefusal } from '../money.ts';
import { refusalAction } from '../taker.ts';
import { ExchangeRateCard } from './exchange-rate-card.tsx';
import { serverFieldErrors } from '../../../lib/api-client.ts';
import { fieldText, isPlanLimitError, serverText } from '../../../lib/i18n.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const DEFAULT_AMOUNT = 500;

export function CreateExchangeDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated?: (id: number) => void }) {
  const { t } = useTranslation('exchange');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
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
  const refusals = requestRefusals({ fromCurrency, amount: parseAmount(amount), rate: chosenRate, market, limits: limits.data });
  const bandRefusal = refusals.find((r) => r.rule === 'rateBand');
  const planRefusals = refusals.filter(isPlanRefusal);

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
        // A rate the server finds outside the band: the market rate moved since it was read; read it again so the
        // band shown is the server's, and say so in the user's language (the field's message is English only).
        const bandMoved = serverFieldErrors(error).exchangeRate !== undefined;
        if (bandMoved) void queryClient.invalidateQueries({ queryKey: queryKeys.exchangeRate });
        const message = bandMoved ? t('create.rules.rateBandMoved', { percent: RATE_BAND_PERCENT }) : serverText(error);
        if (isPlanLimitError(error)) {
          toast({ title: t('create.limitReached'), description: message, variant: 'destructive', action: { label: t('create.upgrade'), onClick: () => { void navigate(paths.subscription); } } });
        } else {
          toast({
            title: t('details.error'), description: t('create.failed', { message }), variant: 'destructive',
            ...refusalAction(error, t, (to) => { void navigate(to); }),
          });
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
          <Box aria-live="polite" aria-describedby={refusals.length > 0 ? 'create-exchange-refusals' : undefined}>
            {refusals.length > 0 && receive !== null ? <Typography variant="body2" color="warning.main">{t('create.refusedHint')}</Typography> : null}
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', ...(refusals.length > 0 ? { color: 'text.disabled' } : {}) }}>
              {receive === null ? null : (
                <Typography sx={{ fontWeight: 600 }} data-testid="pay-amount">
                  {t('create.youPay', { amount: formatCurrency(parseAmount(amount), fromCurrency) })} ·
                </Typography>
              )}
              {/* A refused request receives nothing: the figure is struck through while a rule refuses it. */}
              <Typography sx={{ fontWeight: 600 }} data-testid="receive-amount" component={refusals.length > 0 && receive !== null ? 'del' : 'p'}>
                {receive === null ? ' ' : t('create.youReceive', { amount: formatCurrency(receive, toCurrency) })}
              </Typography>
            </Stack>
          </Box>
          <Box id="create-exchange-refusals">
            {bandRefusal ? <RateBandRefusal refusal={bandRefusal} rate={chosenRate} /> : null}
            {planRefusals.length > 0 ? <PlanLimitRefusal refusals={planRefusals} typed={parseAmount(amount)} /> : null}
          </Box>
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

/** The rate band, in the service's own words, and how far outside it the typed rate is. */
function RateBandRefusal({ refusal, rate }: { refusal: Extract<RequestRefusal, { rule: 'rateBand' }>; rate: string }) {
  const { t } = useTranslation('exchange');
  return (
    <Alert severity="error" data-testid="rate-band-refusal" sx={{ mb: 1 }}>
      <AlertTitle>{t('create.rules.rateBandTitle')}</AlertTitle>
      {t('create.rules.rateBand', { percent: RATE_BAND_PERCENT, market: formatRate(refusal.market), low: formatRate(refusal.low), high: formatRate(refusal.high) })}
      {rate ? <> {t('create.rules.rateBandBy', { context: refusal.side, by: formatRate(refusal.by) })}</> : null}
    </Alert>
  );
}

/** The plan's limits this request would break, under the spec's 'Subscription Limit Reached', with 'Upgrade'. */
function PlanLimitRefusal({ refusals, typed }: { refusals: Exclude<RequestRefusal, { rule: 'rateBand' }>[]; typed: number }) {
  const { t } = useTranslation('exchange');
  const tier = (name: ExchangeLimits['tier']) => t(`common:plans.${name}`);
  return (
    <Alert
      severity="warning"
      data-testid="plan-limit-refusal"
      // Premium is the top plan: its limits are said, with nothing to upgrade to.
      action={refusals[0]?.tier === 'free' ? <Button component={RouterLink} to={paths.subscription} color="inherit" size="small">{t('create.upgrade')}</Button> : undefined}
    >
      <AlertTitle>{t('create.limitReached')}</AlertTitle>
      {refusals.map((r) => (
        <Typography key={r.rule} variant="body2" data-testid={`refusal-${r.rule}`}>
          {r.rule === 'perExchange'
            ? t('create.rules.perExchange', {
              tier: tier(r.tier), max: formatCurrency(r.max.amount, r.max.currency),
              amount: formatCurrency(typed, r.max.currency), over: formatCurrency(r.over.amount, r.over.currency),
            })
            : t(`create.rules.${r.rule}`, { tier: tier(r.tier), allowed: r.allowed, used: r.used, when: formatDateTime(r.resetsAt) })}
        </Typography>
      ))}
    </Alert>
  );
}
