/**
 * The user directory (spec section 2): one card per user with its directory tier (spec section 9), named as such and
 * explained once above the cards, as it is not the trust level a profile shows; the name leads to the user's public
 * profile; for a signed-in viewer, Block (or Unblock) on everyone else's card; each card counts the user's dispute outcomes.
 */
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { directoryTier, type UserDirectory as Directory } from '@puente/contracts';
import { PageLoader } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';
import { StarRating, TrustChip } from '../../../components/ui/trust.tsx';
import { UserAvatar } from '../../../components/ui/user-avatar.tsx';
import { formatMonthYear, trustRatingLabel } from '../../../utils/format.ts';
import { useCurrentUser } from '../../../lib/auth.ts';
import { DIRECTORY_PAGE_SIZE, useUserDirectory } from '../api/get-users.ts';
import { useBlockedUsers } from '../api/blocks.ts';
import { BlockButton } from './block-button.tsx';
import { DirectoryFilters, DirectoryPages, useDirectoryView } from './directory-filters.tsx';
import { DisputeOutcomeCounts } from '../../../components/dispute-outcomes.tsx';

type Entry = Directory[number];

function UserCard({ user, block }: { user: Entry; block?: { blocked: boolean } }) {
  const { t } = useTranslation('users');
  const { t: tt } = useTranslation('trust');
  const tier = directoryTier(user.trustRating);
  return (
    <Card component="article" aria-label={`${user.firstName} ${user.lastName}`}>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <UserAvatar firstName={user.firstName} lastName={user.lastName} profileImageUrl={user.profileImageUrl} size={48} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h6" component="h2" sx={{ fontSize: '1.05rem', overflowWrap: 'anywhere' }}>
              <Link component={RouterLink} to={paths.user(user.id)} color="inherit">{user.firstName} {user.lastName}</Link>
            </Typography>
            {'email' in user ? <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>{user.email}</Typography> : null}
          </Box>
        </Stack>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <TrustChip level={tier} label={tt('scales.tier.chip', { level: tier })} />
          {user.trustRating === null ? null : <StarRating rating={user.trustRating} />}
          <Typography variant="body2">{trustRatingLabel(user.trustRating)}</Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('exchanges', { count: user.transactionCount })} · {t('ratings', { count: user.ratingCount })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('memberSince', { date: formatMonthYear(user.createdAt) })}
          {'role' in user && user.role === 'admin' ? t('admin') : ''}
          {'subscriptionTier' in user ? t('plan', { tier: user.subscriptionTier }) : ''}
        </Typography>
        <DisputeOutcomeCounts outcomes={user.disputeOutcomes} />
        {block ? <BlockButton userId={user.id} name={`${user.firstName} ${user.lastName}`} blocked={block.blocked} /> : null}
      </CardContent>
    </Card>
  );
}

export function UserDirectory() {
  const { t } = useTranslation('users');
  const [view, changeView] = useDirectoryView();
  const directory = useUserDirectory(view);
  const { user: viewer } = useCurrentUser();
  const blocked = useBlockedUsers(viewer !== null);
  const blockedIds = new Set(blocked.data?.map((b) => b.userId));
  const blockOf = (user: Entry) => (viewer && blocked.data && user.id !== viewer.id ? { blocked: blockedIds.has(user.id) } : undefined);
  const filtered = view.name !== '' || view.tier !== '';
  return (
    <>
      <TierExplained />
      <DirectoryFilters view={view} onChange={changeView} />
      {directory.isPending ? <PageLoader label={t('loading')} /> : null}
      {directory.isError ? <Alert severity="error">{t('failed')}</Alert> : null}
      {directory.data ? (
        <>
          <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {directory.data.total === 0 ? t(filtered ? 'noMatch' : 'empty') : t('found', { count: directory.data.total })}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' } }}>
            {directory.data.items.map((user) => {
              const block = blockOf(user);
              return <UserCard key={user.id} user={user} {...(block ? { block } : {})} />;
            })}
          </Box>
          <DirectoryPages page={view.page} pages={Math.ceil(directory.data.total / DIRECTORY_PAGE_SIZE)} onChange={(page) => changeView({ page })} />
        </>
      ) : null}
    </>
  );
}

/** What the cards' tier is made of, once for all of them, with the way to the whole story. */
function TierExplained() {
  const { t } = useTranslation('trust');
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
      {t('scales.tier.explain')}{' '}
      <Link component={RouterLink} to={paths.trustScales}>{t('scales.more')}</Link>
    </Typography>
  );
}
