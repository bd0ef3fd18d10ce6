/**
 * The open market: everyone else's open requests as cards (the user's own are under Active Requests), each saying
 * what the user would pay and receive by taking it and how its rate compares with the market's; filtered by
 * direction, amount range and minimum trust, sorted.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ExchangeRequestSort, type Currency } from '@puente/contracts';
import { useExchangeRate } from '../api/rate.ts';
import { useMarket, type MarketFilters } from '../api/requests.ts';
import { ExchangeRequestCard } from './exchange-request-card.tsx';
import { serverText } from '../../../lib/i18n.ts';
import { parseAmount } from '../../../utils/format.ts';

const positive = (value: string) => (value.trim() === '' || !(parseAmount(value) >= 0) ? undefined : parseAmount(value));

export function Market({ userId, onOpen }: { userId: number; onOpen: (id: number) => void }) {
  const { t } = useTranslation('exchange');
  const [direction, setDirection] = useState<Currency | ''>('');
  const [minAmount, setMinAmount] = useState('');
  const [maxAmount, setMaxAmount] = useState('');
  const [minTrust, setMinTrust] = useState('');
  const [sort, setSort] = useState<ExchangeRequestSort>('newest');
  // An amount range is in the request's own currency, so it applies only with a direction.
  const filters: MarketFilters = {
    sort,
    ...(direction ? { fromCurrency: direction } : {}),
    ...(direction && positive(minAmount) !== undefined ? { minAmount: positive(minAmount)! } : {}),
    ...(direction && positive(maxAmount) !== undefined ? { maxAmount: positive(maxAmount)! } : {}),
    ...(minTrust ? { minTrust: Number(minTrust) } : {}),
  };
  const market = useMarket(filters);
  const rate = useExchangeRate();
  const requests = (market.data ?? []).filter((r) => r.status === 'open' && r.userId !== userId);

  let body;
  if (market.isPending) body = <Skeleton variant="rounded" height={160} />;
  else if (market.isError) body = <Alert severity="error">{t('market.failed', { message: serverText(market.error) })}</Alert>;
  else if (requests.length === 0) body = <Typography color="text.secondary">{t('market.empty')}</Typography>;
  else {
    body = (
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
        {requests.map((r) => (
          <ExchangeRequestCard key={r.id} request={r} onOpen={onOpen} viewerId={userId} {...(rate.data ? { marketRate: rate.data.gbpToClp } : {})} />
        ))}
      </Box>
    );
  }
  return (
    <Box component="section" aria-labelledby="market-heading">
      <Typography id="market-heading" variant="h2" sx={{ fontSize: '1.3rem', fontWeight: 700, mb: 1.5 }}>{t('market.title')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }} role="search" aria-label={t('market.title')}>
        <TextField select size="small" label={t('market.direction')} value={direction} onChange={(e) => setDirection(e.target.value as Currency | '')} sx={{ minWidth: 140 }}>
          <MenuItem value="">{t('market.any')}</MenuItem>
          <MenuItem value="GBP">{t('create.gbpToClp')}</MenuItem>
          <MenuItem value="CLP">{t('create.clpToGbp')}</MenuItem>
        </TextField>
        <TextField size="small" label={t('market.minAmount')} value={minAmount} onChange={(e) => setMinAmount(e.target.value)} disabled={!direction} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
        <TextField size="small" label={t('market.maxAmount')} value={maxAmount} onChange={(e) => setMaxAmount(e.target.value)} disabled={!direction} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
        <TextField select size="small" label={t('market.minTrust')} value={minTrust} onChange={(e) => setMinTrust(e.target.value)} sx={{ minWidth: 120 }}>
          <MenuItem value="">{t('market.any')}</MenuItem>
          {[1, 2, 3, 4, 5].map((n) => <MenuItem key={n} value={String(n)}>{`${n}+`}</MenuItem>)}
        </TextField>
        <TextField select size="small" label={t('market.sort')} value={sort} onChange={(e) => setSort(e.target.value as ExchangeRequestSort)} sx={{ minWidth: 120 }}>
          {ExchangeRequestSort.options.map((s) => <MenuItem key={s} value={s}>{t(`market.sorts.${s}`)}</MenuItem>)}
        </TextField>
      </Stack>
      {body}
    </Box>
  );
}
