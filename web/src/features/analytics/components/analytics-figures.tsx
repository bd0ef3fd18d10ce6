/**
 * Premium's advanced analytics (beyond the spec): the user's completed exchanges in figures — a summary,
 * the volume per month per currency (a chart and its table), each rate against the market, and the counterparties
 * with their ratings. Loaded lazily by the route (it draws with MUI X Charts, a chunk of its own: vite.config.ts).
 */
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslation } from 'react-i18next';
import { PREMIUM_REQUIRED, type Analytics, type AnalyticsMonth, type Currency } from '@puente/contracts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatCurrency, formatMonthYear, formatRate, formatShortDate, formatTrustRating } from '../../../utils/format.ts';
import { useAnalytics } from '../api/get-analytics.ts';
import { UpgradePrompt } from './upgrade-prompt.tsx';

const CURRENCIES: Currency[] = ['GBP', 'CLP'];
// Mid-month, so the month's name is the same in every time zone.
const monthName = (month: string) => formatMonthYear(`${month}-15T12:00:00Z`);

/** The signed percentage, to 2 decimals in the UI's language (`+1.50 %`, `-1,00 %`). */
function usePercent() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language === 'es' ? 'es-CL' : 'en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
  return (value: number) => `${format.format(value)} %`;
}

/** Whole seconds as minutes, hours and minutes, or days and hours. */
function useDuration() {
  const { t } = useTranslation('analytics', { keyPrefix: 'duration' });
  return (seconds: number) => {
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return t('minutes', { minutes });
    if (minutes < 24 * 60) return t('hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
    return t('days', { days: Math.floor(minutes / 1440), hours: Math.floor((minutes % 1440) / 60) });
  };
}

export function AnalyticsFigures() {
  const { t } = useTranslation('analytics');
  const analytics = useAnalytics();
  if (analytics.isPending) return <Skeleton variant="rounded" height={240} aria-label={t('loading')} />;
  if (analytics.isError) {
    // The plan changed since the user was read (a cancelled premium): the server's word wins.
    const free = analytics.error instanceof ApiError && analytics.error.data?.code === PREMIUM_REQUIRED;
    return free ? <UpgradePrompt /> : <Alert severity="error">{t('loadFailed')}</Alert>;
  }
  const figures = analytics.data;
  if (figures.completedExchanges === 0) return <Alert severity="info">{t('empty')}</Alert>;
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Summary figures={figures} />
      <Volume months={figures.months} />
      <Rates trades={figures.rates.trades} />
      <Counterparties list={figures.counterparties.list} />
    </Box>
  );
}

function Summary({ figures }: { figures: Analytics }) {
  const { t } = useTranslation('analytics', { keyPrefix: 'summary' });
  const percent = usePercent();
  const duration = useDuration();
  const or = <T,>(value: T | null, show: (v: T) => string) => (value === null ? t('none') : show(value));
  const items: [string, string][] = [
    [t('completed'), String(figures.completedExchanges)],
    [t('advantage'), or(figures.rates.averageAdvantagePercent, percent)],
    [t('median'), or(figures.timeToCompletion.medianSeconds, duration)],
    [t('average'), or(figures.timeToCompletion.averageSeconds, duration)],
    [t('counterpartyRating'), or(figures.counterparties.averageRating, formatTrustRating)],
  ];
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, 1fr)' } }}>
      {items.map(([label, value]) => (
        // dl > div > dt + dd: the card is the one wrapper a description list allows (no CardContent inside it).
        <Card key={label} variant="outlined" sx={{ p: 2 }}>
          <Typography component="dt" variant="body2" color="text.secondary">{label}</Typography>
          <Typography component="dd" variant="h5" sx={{ m: 0 }}>{value}</Typography>
        </Card>
      ))}
    </Box>
  );
}

function Section({ title, caption, children }: { title: string; caption?: string; children: ReactNode }) {
  return (
    <Card component="section" aria-label={title} variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2">{title}</Typography>
        {caption ? <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{caption}</Typography> : null}
        <Box sx={{ overflowX: 'auto' }}>{children}</Box>
      </CardContent>
    </Card>
  );
}

function Volume({ months }: { months: AnalyticsMonth[] }) {
  const { t } = useTranslation('analytics', { keyPrefix: 'volume' });
  const { palette } = useTheme();
  const labels = months.map((m) => monthName(m.month));
  return (
    <Section title={t('title')}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {CURRENCIES.map((currency) => (
          <Box key={currency} role="figure" aria-label={t('chart', { currency })}>
            <BarChart
              height={240}
              xAxis={[{ scaleType: 'band', data: labels }]}
              // 'auto': as wide as the longest amount, which a fixed width cut to '£10…'.
              yAxis={[{ width: 'auto', valueFormatter: (v: number) => formatCurrency(v, currency) }]}
              series={[
                { data: months.map((m) => m.sent[currency]), label: t('sent'), color: palette.primary.main, valueFormatter: (v) => formatCurrency(v ?? 0, currency) },
                { data: months.map((m) => m.received[currency]), label: t('received'), color: palette.success.main, valueFormatter: (v) => formatCurrency(v ?? 0, currency) },
              ]}
            />
          </Box>
        ))}
      </Box>
      <Table size="small" aria-label={t('numbers', { chart: t('title') })}>
        <TableHead>
          <TableRow>
            <TableCell>{t('month')}</TableCell>
            <TableCell align="right">{t('exchanges')}</TableCell>
            {CURRENCIES.flatMap((c) => [
              <TableCell key={`sent-${c}`} align="right">{`${t('sent')} ${c}`}</TableCell>,
              <TableCell key={`received-${c}`} align="right">{`${t('received')} ${c}`}</TableCell>,
            ])}
          </TableRow>
        </TableHead>
        <TableBody>
          {months.map((m) => (
            <TableRow key={m.month}>
              <TableCell>{monthName(m.month)}</TableCell>
              <TableCell align="right">{m.exchanges}</TableCell>
              {CURRENCIES.flatMap((c) => [
                <TableCell key={`sent-${c}`} align="right">{formatCurrency(m.sent[c], c)}</TableCell>,
                <TableCell key={`received-${c}`} align="right">{formatCurrency(m.received[c], c)}</TableCell>,
              ])}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Section>
  );
}

function Rates({ trades }: { trades: Analytics['rates']['trades'] }) {
  const { t } = useTranslation('analytics', { keyPrefix: 'rates' });
  const percent = usePercent();
  return (
    <Section title={t('title')} caption={t('caption')}>
      <Table size="small" aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('completedAt')}</TableCell>
            <TableCell>{t('sent')}</TableCell>
            <TableCell align="right">{t('rate')}</TableCell>
            <TableCell align="right">{t('market')}</TableCell>
            <TableCell align="right">{t('advantage')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {trades.map((trade) => (
            <TableRow key={trade.exchangeMatchId}>
              <TableCell>{formatShortDate(trade.completedAt)}</TableCell>
              <TableCell>{trade.fromCurrency}</TableCell>
              <TableCell align="right">{formatRate(trade.exchangeRate)}</TableCell>
              <TableCell align="right">{trade.marketRate === null ? t('unknown') : formatRate(trade.marketRate)}</TableCell>
              <TableCell align="right" sx={{ color: (trade.advantagePercent ?? 0) < 0 ? 'error.main' : 'success.main' }}>
                {trade.advantagePercent === null ? t('unknown') : percent(trade.advantagePercent)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Section>
  );
}

function Counterparties({ list }: { list: Analytics['counterparties']['list'] }) {
  const { t } = useTranslation('analytics', { keyPrefix: 'counterparties' });
  return (
    <Section title={t('title')} caption={t('caption')}>
      <Table size="small" aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('name')}</TableCell>
            <TableCell align="right">{t('exchanges')}</TableCell>
            <TableCell>{t('rating')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.map((c) => (
            <TableRow key={c.userId}>
              <TableCell>{`${c.firstName} ${c.lastName}`}</TableCell>
              <TableCell align="right">{c.exchanges}</TableCell>
              <TableCell>
                {c.trustRating === null ? t('notRated') : `${formatTrustRating(c.trustRating)} (${t('ratings', { count: c.ratingCount })})`}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Section>
  );
}
