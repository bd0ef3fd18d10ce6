/**
 * The plans (spec sections 2 and 9): Free and Premium cards with their prices, limits and extras, the current one
 * marked; Upgrade for a free user (or, where payments are not configured, a notice saying so); for premium the period
 * end and Cancel; the user's usage; a comparison table.
 */
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SubscriptionPlans, type Plan, type SubscriptionInfo } from '@puente/contracts';
import { toast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { serverText } from '../../../lib/i18n.ts';
import { formatPlanAmount, formatShortDate } from '../../../utils/format.ts';
import { useCancelSubscription, usePlanUsage } from '../api/subscription.ts';
import { PaymentsUnavailable } from './payments-unavailable.tsx';

const plans = [SubscriptionPlans.free, SubscriptionPlans.premium];

function usePlanTexts() {
  const { t } = useTranslation('subscription');
  return {
    price: (p: Plan) => t('perMonth', { price: formatPlanAmount(p.priceGbpPerMonth, 'GBP') }),
    perExchange: (p: Plan) => t('perExchange', { gbp: formatPlanAmount(p.maxPerExchange.GBP, 'GBP'), clp: formatPlanAmount(p.maxPerExchange.CLP, 'CLP') }),
    perDay: (p: Plan) => t('perDay', { count: p.exchangesPerDay }),
    perMonth: (p: Plan) => t('perMonthCount', { count: p.exchangesPerMonth }),
    extras: (p: Plan) => p.features.map((f) => t(`features.${f}`, { defaultValue: f })).join(', '),
  };
}

function PlanCard({ plan, info }: { plan: Plan; info: SubscriptionInfo }) {
  const { t } = useTranslation('subscription');
  const texts = usePlanTexts();
  const cancel = useCancelSubscription();
  const current = info.tier === plan.tier;
  const ends = info.currentPeriodEnd ? formatShortDate(info.currentPeriodEnd) : null;
  return (
    <Card variant="outlined" component="section" aria-label={t(`common:plans.${plan.tier}`)} sx={current ? { borderColor: 'primary.main', borderWidth: 2 } : undefined}>
      <CardContent>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="h2" sx={{ fontSize: '1.4rem', fontWeight: 700 }}>{t(`common:plans.${plan.tier}`)}</Typography>
          {current ? <Chip color="primary" size="small" label={t('current')} /> : null}
        </Box>
        <Typography variant="h4" component="p" sx={{ my: 1, fontWeight: 700 }} data-testid="plan-price">{texts.price(plan)}</Typography>
        <Box component="ul" sx={{ pl: 2.5, m: 0 }}>
          <li>{texts.perExchange(plan)}</li>
          <li>{texts.perDay(plan)}</li>
          <li>{texts.perMonth(plan)}</li>
          {plan.features.map((f) => <li key={f}>{t(`features.${f}`, { defaultValue: f })}</li>)}
        </Box>
        {current && plan.tier === 'premium' && ends ? (
          <Typography sx={{ mt: 1.5 }} color="text.secondary">{info.cancelAtPeriodEnd ? t('endsOn', { date: ends }) : t('renewsOn', { date: ends })}</Typography>
        ) : null}
        {current && info.status === 'past_due' ? <Alert severity="warning" sx={{ mt: 1.5 }}>{t('pastDue')}</Alert> : null}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        {plan.tier === 'premium' && info.tier === 'free' ? (
          info.payments === 'unavailable'
            ? <PaymentsUnavailable />
            : <Button variant="contained" component={RouterLink} to={paths.checkout}>{t('upgrade')}</Button>
        ) : null}
        {plan.tier === 'premium' && current && !info.cancelAtPeriodEnd ? (
          <Button color="error" disabled={cancel.isPending} onClick={() => cancel.mutate(undefined, {
            onSuccess: () => toast({ title: t('cancelled'), ...(ends ? { description: t('cancelledText', { date: ends }) } : {}), variant: 'success' }),
            onError: (error) => toast({ title: t('error'), description: `${t('failedCancel')} ${serverText(error)}`.trim(), variant: 'destructive' }),
          })}>{t('cancel')}</Button>
        ) : null}
      </CardActions>
    </Card>
  );
}

function Usage() {
  const { t } = useTranslation('subscription');
  const usage = usePlanUsage();
  if (usage.isPending) return <Skeleton variant="rounded" height={48} />;
  if (usage.isError) return null;
  return (
    <Box component="section" aria-label={t('usage')}>
      <Typography sx={{ fontWeight: 700 }}>{t('usage')}</Typography>
      <Typography data-testid="usage-today">{t('usageToday', { used: usage.data.usedToday, limit: usage.data.perDay })}</Typography>
      <Typography data-testid="usage-month">{t('usageMonth', { used: usage.data.usedThisMonth, limit: usage.data.perMonth })}</Typography>
    </Box>
  );
}

function ComparisonTable() {
  const { t } = useTranslation('subscription');
  const texts = usePlanTexts();
  const rows: [string, (p: Plan) => string][] = [
    [t('compareRows.price'), texts.price], [t('compareRows.perExchange'), texts.perExchange], [t('compareRows.perDay'), texts.perDay],
    [t('compareRows.perMonth'), texts.perMonth], [t('compareRows.extras'), texts.extras],
  ];
  return (
    <Table size="small" aria-label={t('compare')}>
      <TableHead><TableRow><TableCell /><TableCell>{t('common:plans.free')}</TableCell><TableCell>{t('common:plans.premium')}</TableCell></TableRow></TableHead>
      <TableBody>
        {rows.map(([label, cell]) => (
          <TableRow key={label}><TableCell component="th" scope="row">{label}</TableCell>{plans.map((p) => <TableCell key={p.tier}>{cell(p)}</TableCell>)}</TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function Plans({ info }: { info: SubscriptionInfo }) {
  const { t } = useTranslation('subscription');
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {plans.map((plan) => <PlanCard key={plan.tier} plan={plan} info={info} />)}
      </Box>
      <Usage />
      <Box>
        <Typography variant="h2" sx={{ fontSize: '1.2rem', fontWeight: 700, mb: 1 }}>{t('compare')}</Typography>
        <ComparisonTable />
      </Box>
    </Box>
  );
}
