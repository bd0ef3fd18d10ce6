/**
 * The profile (spec section 2): avatar, name, trust badge, member since; Invite Friends and Manage Accounts; the
 * stats (trust rating, total ratings, completed transactions, referrals made); tabs Ratings and Referrals; the
 * verification dialog; the email digest switch, the security cards (two-factor sign-in, signed-in devices, login
 * history: /profile#security) and 'Your data' (beyond the spec). `actions`
 * takes what other features add (the route passes 'Change Password').
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@puente/contracts';
import { paths } from '../../../config/paths.ts';
import { UserAvatar } from '../../../components/ui/user-avatar.tsx';
import { RatingsReceived } from '../../../components/ratings-received.tsx';
import { TrustScales } from '../../../components/trust-scales.tsx';
import { formatMonthYear, formatRelativeTime, trustRatingLabel } from '../../../utils/format.ts';
import { useReferrals } from '../api/get-referrals.ts';
import { EditNameDialog } from './edit-name-dialog.tsx';
import { EmailDigestSwitch } from './email-digest-switch.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { VerificationDialog } from './verification-dialog.tsx';
import { SignedInDevices } from './signed-in-devices.tsx';
import { SignInMethodsCard } from './sign-in-methods-card.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';
import { LoginHistoryCard } from './login-history-card.tsx';
import { YourData } from './your-data.tsx';

type Open = 'invite' | 'verify' | 'name' | null;

/** Referrals listed a page at a time: a referral programme's keenest members bring in hundreds. */
const REFERRALS_PER_PAGE = 20;

export function ProfileView({ user, actions }: { user: CurrentUser; actions?: ReactNode }) {
  const { t } = useTranslation('profile');
  const [open, setOpen] = useState<Open>(null);
  const [tab, setTab] = useState<'ratings' | 'referrals'>('ratings');
  const [referralPage, setReferralPage] = useState(1);
  const referrals = useReferrals({ limit: REFERRALS_PER_PAGE, offset: (referralPage - 1) * REFERRALS_PER_PAGE });
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#security') document.getElementById('security')?.scrollIntoView?.();
  }, [hash]);

  return (
    <Box>
      <Card component="section" aria-labelledby="profile-name">
        <CardContent sx={{ p: { xs: 2, md: 3 } }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
            <UserAvatar firstName={user.firstName} lastName={user.lastName} profileImageUrl={user.profileImageUrl} size={80} />
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography id="profile-name" variant="h1" component="h1" sx={{ fontSize: { xs: '1.6rem', md: '2rem' }, overflowWrap: 'anywhere' }}>
                {user.firstName} {user.lastName}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>{t('memberSince', { date: formatMonthYear(user.createdAt) })}</Typography>
              <TrustScales trustLevel={user.trustLevel} trustScore={user.trustScore} trustRating={user.trustRating} />
            </Box>
          </Stack>
          <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 3, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => setOpen('invite')}>{t('invite')}</Button>
            <Button variant="outlined" component={RouterLink} to={paths.accounts}>{t('manageAccounts')}</Button>
            <Button variant="outlined" onClick={() => setOpen('verify')}>{t('verification')}</Button>
            <Button variant="outlined" onClick={() => setOpen('name')}>{t('editName')}</Button>
            {actions}
          </Stack>
          <Box sx={{ mt: 2 }}>
            <EmailDigestSwitch />
          </Box>
        </CardContent>
      </Card>

      <Box
        component="dl"
        aria-label={t('statistics')}
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, my: 3 }}
      >
        <Stat label={t('stats.trustRating')} value={trustRatingLabel(user.trustRating)} />
        <Stat label={t('stats.totalRatings')} value={String(user.ratingCount)} />
        <Stat label={t('stats.transactions')} value={String(user.transactionCount)} />
        <Stat label={t('stats.referrals')} value={referrals.isPending ? '…' : String(referrals.data?.total ?? 0)} />
      </Box>

      <Card>
        <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
          <Tabs value={tab} onChange={(_event, value: 'ratings' | 'referrals') => setTab(value)} aria-label={t('tabs.label')}>
            <Tab label={t('tabs.ratings')} value="ratings" id="tab-ratings" aria-controls="panel-ratings" />
            <Tab label={t('tabs.referrals')} value="referrals" id="tab-referrals" aria-controls="panel-referrals" />
          </Tabs>
        </Box>
        <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} sx={{ p: 2 }}>
          {tab === 'ratings' ? <RatingsReceived userId={user.id} /> : <ReferralsTab referrals={referrals} page={referralPage} onPage={setReferralPage} />}
        </Box>
      </Card>

      {/* /profile#security: where the admin pages send an admin to turn two-factor sign-in on. */}
      <Box id="security" component="section" aria-labelledby="security-title" sx={{ mt: 4, scrollMarginTop: 80 }}>
        <Typography id="security-title" variant="h5" component="h2">{t('security')}</Typography>
        <SignInMethodsCard />
        <TwoFactorCard />
        <SignedInDevices />
        <LoginHistoryCard />
      </Box>
      <YourData />

      <InviteDialog open={open === 'invite'} onClose={() => setOpen(null)} />
      <VerificationDialog user={user} open={open === 'verify'} onClose={() => setOpen(null)} />
      {open === 'name' ? <EditNameDialog user={user} open onClose={() => setOpen(null)} /> : null}
    </Box>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    // dl > div > dt + dd: the card is the one wrapper a description list allows.
    <Card sx={{ p: 2 }}>
      <Typography component="dt" variant="body2" color="text.secondary">{label}</Typography>
      <Typography component="dd" variant="h5" sx={{ m: 0, mt: 0.5, fontWeight: 700, fontSize: { xs: '1.2rem', sm: '1.5rem' } }}>{value}</Typography>
    </Card>
  );
}

function ReferralsTab({ referrals, page, onPage }: { referrals: ReturnType<typeof useReferrals>; page: number; onPage: (page: number) => void }) {
  const { t } = useTranslation('profile');
  if (referrals.isPending) return <Skeleton variant="rounded" height={80} />;
  if (referrals.isError) return <Alert severity="error">{t('referrals.failed')}</Alert>;
  if (referrals.data.total === 0) {
    return <Typography color="text.secondary">{t('referrals.none')}</Typography>;
  }
  const pages = Math.ceil(referrals.data.total / REFERRALS_PER_PAGE);
  return (
    <>
      <List disablePadding>
        {referrals.data.items.map((referral) => (
          <ListItem key={referral.id} divider disableGutters>
            <ListItemText primary={`${referral.firstName} ${referral.lastName}`} secondary={t('referrals.joined', { when: formatRelativeTime(referral.createdAt) })} />
          </ListItem>
        ))}
      </List>
      {pages > 1 ? <Pagination sx={{ pt: 2 }} count={pages} page={page} onChange={(_, next) => onPage(next)} aria-label={t('referrals.pages')} /> : null}
    </>
  );
}
