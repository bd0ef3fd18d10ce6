/**
 * The admin page's charts over a period of UTC days (beyond the spec): sign-ups and logins per day with
 * the failures stacked on the successes, the failure reasons, and the exchange funnel (requests posted → matched →
 * confirmed → completed). Each chart carries its numbers as a table for screen readers (a chart's drawing says
 * nothing to them).
 */
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslation } from 'react-i18next';
import type { AttemptsOnDay, ExchangeFunnel, LoginFailureStat, SignupFailureStat } from '@puente/contracts';
import type { Period } from '../../../lib/query-keys.ts';
import { formatDayMonth } from '../../../utils/format.ts';
import { useAttemptsPerDay, useExchangeFunnel } from '../api/get-activity.ts';
import { useLoginFailures, useSignupFailures } from '../api/get-failure-stats.ts';
import { Loaded } from './loaded.tsx';

const DAY_MS = 86_400_000;
const FAILED = 'activity.loadFailed';
const CHART_HEIGHT = 260;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Counts: whole ticks only (no 0.5 of a sign-up). */
const COUNT_AXIS = [{ tickMinStep: 1 }];

/** The last `days` UTC days, today included. */
export function lastDays(days: number, now = Date.now()): Period {
  return { from: isoDay(now - (days - 1) * DAY_MS), to: isoDay(now) };
}

/** Read by assistive technology, not drawn: the numbers behind a chart. */
const visuallyHidden = {
  position: 'absolute', width: 1, height: 1, p: 0, m: -1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0,
} as const;

export function AdminActivity() {
  const { t } = useTranslation('admin', { keyPrefix: 'activity' });
  const [period, setPeriod] = useState<Period>(() => lastDays(30));
  const perDay = useAttemptsPerDay(period);
  const funnel = useExchangeFunnel(period);
  const signupFailures = useSignupFailures({ email: '', ...period });
  const loginFailures = useLoginFailures({ email: '', ...period });

  // A cleared or half-typed date keeps the last whole period.
  const change = (bound: keyof Period) => (value: string) => { if (value) setPeriod({ ...period, [bound]: value }); };

  return (
    <Box component="section" aria-labelledby="activity-title" sx={{ mt: 3 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' }, justifyContent: 'space-between', mb: 2 }}>
        <Box>
          <Typography id="activity-title" variant="h6" component="h2">{t('title')}</Typography>
          <Typography color="text.secondary" variant="body2">{t('intro')}</Typography>
        </Box>
        <Stack direction="row" spacing={2}>
          <TextField label={t('from')} type="date" size="small" value={period.from} onChange={(e) => change('from')(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField label={t('to')} type="date" size="small" value={period.to} onChange={(e) => change('to')(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        </Stack>
      </Stack>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
        <Loaded query={perDay} failedKey={FAILED}>{(days) => <AttemptsPerDayCharts days={days} />}</Loaded>
        <Loaded query={signupFailures} failedKey={FAILED}>
          {(signups) => <Loaded query={loginFailures} failedKey={FAILED}>{(logins) => <FailureReasons signups={signups} logins={logins} />}</Loaded>}
        </Loaded>
        <Loaded query={funnel} failedKey={FAILED}>{(counts) => <Funnel counts={counts} />}</Loaded>
      </Box>
    </Box>
  );
}

function AttemptsPerDayCharts({ days }: { days: AttemptsOnDay[] }) {
  const { t } = useTranslation('admin', { keyPrefix: 'activity' });
  const { palette } = useTheme();
  const labels = days.map((d) => formatDayMonth(d.date));
  const series = (values: number[], label: string, stack: string, color: string) => ({ data: values, label, stack, color });
  return (
    <>
      <ChartCard
        title={t('signupsPerDay')}
        headers={[t('date'), t('series.completed'), t('series.pending'), t('series.failed')]}
        rows={days.map((d) => [d.date, d.signups.completed, d.signups.pending, d.signups.failed])}
      >
        <BarChart
          height={CHART_HEIGHT}
          xAxis={[{ scaleType: 'band', data: labels }]}
          yAxis={COUNT_AXIS}
          series={[
            series(days.map((d) => d.signups.completed), t('series.completed'), 'signups', palette.success.main),
            series(days.map((d) => d.signups.pending), t('series.pending'), 'signups', palette.grey[500]),
            series(days.map((d) => d.signups.failed), t('series.failed'), 'signups', palette.error.main),
          ]}
        />
      </ChartCard>
      <ChartCard
        title={t('loginsPerDay')}
        headers={[t('date'), t('series.success'), t('series.failed')]}
        rows={days.map((d) => [d.date, d.logins.success, d.logins.failed])}
      >
        <BarChart
          height={CHART_HEIGHT}
          xAxis={[{ scaleType: 'band', data: labels }]}
          yAxis={COUNT_AXIS}
          series={[
            series(days.map((d) => d.logins.success), t('series.success'), 'logins', palette.success.main),
            series(days.map((d) => d.logins.failed), t('series.failed'), 'logins', palette.error.main),
          ]}
        />
      </ChartCard>
    </>
  );
}

function FailureReasons({ signups, logins }: { signups: SignupFailureStat[]; logins: LoginFailureStat[] }) {
  const { t } = useTranslation('admin', { keyPrefix: 'activity' });
  const { palette } = useTheme();
  const reasons = [
    ...signups.map((s) => ({ label: t('signupReason', { step: s.step, reason: s.failureReason ?? t('noReason') }), count: s.count })),
    ...logins.map((l) => ({ label: t('loginReason', { method: l.method, reason: l.failureReason ?? t('noReason') }), count: l.count })),
  ].sort((a, b) => b.count - a.count);
  return (
    <ChartCard title={t('failureReasons')} headers={[t('reason'), t('series.failures')]} rows={reasons.map((r) => [r.label, r.count])}>
      <BarChart
        height={Math.max(CHART_HEIGHT, reasons.length * 36)}
        layout="horizontal"
        yAxis={[{ scaleType: 'band', data: reasons.map((r) => r.label), width: 260 }]}
        xAxis={COUNT_AXIS}
        series={[{ data: reasons.map((r) => r.count), label: t('series.failures'), color: palette.error.main }]}
        hideLegend
      />
    </ChartCard>
  );
}

function Funnel({ counts }: { counts: ExchangeFunnel | null }) {
  const { t } = useTranslation('admin', { keyPrefix: 'activity' });
  const { palette } = useTheme();
  const stages = (['posted', 'matched', 'confirmed', 'completed'] as const).map((stage) => ({ label: t(`stages.${stage}`), count: counts?.[stage] ?? 0 }));
  return (
    <ChartCard title={t('funnel')} headers={[t('stage'), t('series.requests')]} rows={stages.map((s) => [s.label, s.count])}>
      <BarChart
        height={CHART_HEIGHT}
        xAxis={[{ scaleType: 'band', data: stages.map((s) => s.label) }]}
        yAxis={COUNT_AXIS}
        series={[{ data: stages.map((s) => s.count), label: t('series.requests'), color: palette.primary.main }]}
        hideLegend
      />
    </ChartCard>
  );
}

/** A chart with its title, and its numbers as a table; nothing but a sentence when every number is zero. */
function ChartCard({ title, headers, rows, children }: { title: string; headers: string[]; rows: (string | number)[][]; children: ReactNode }) {
  const { t } = useTranslation('admin', { keyPrefix: 'activity' });
  const empty = rows.every((cells) => cells.slice(1).every((cell) => cell === 0));
  return (
    <Card component="figure" aria-label={title} sx={{ m: 0, position: 'relative' }}>
      <CardContent>
        <Typography component="figcaption" variant="subtitle1" sx={{ fontWeight: 700 }}>{title}</Typography>
        {empty ? <Typography color="text.secondary" sx={{ py: 4 }}>{t('empty')}</Typography> : children}
        <Table size="small" aria-label={t('numbers', { chart: title })} sx={visuallyHidden}>
          <TableHead><TableRow>{headers.map((h) => <TableCell key={h}>{h}</TableCell>)}</TableRow></TableHead>
          <TableBody>
            {rows.map((cells) => <TableRow key={String(cells[0])}>{cells.map((cell, i) => <TableCell key={i}>{cell}</TableCell>)}</TableRow>)}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
