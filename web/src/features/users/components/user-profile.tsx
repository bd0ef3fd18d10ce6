/**
 * A user's public profile (GET /api/users/{id}), open to visitors like the directory: name and photo, both trust
 * scales named and explained, their record (as the trade shows it), the ratings they received (the ratings route is
 * for signed-in users, so a visitor is asked to log in), and Block for a signed-in viewer other than them. An unknown
 * id says 'User not found' and leads back to the directory.
 */
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@puente/contracts';
import { Page, PageLoader } from '../../../components/ui/page.tsx';
import { UserAvatar } from '../../../components/ui/user-avatar.tsx';
import { RatingsReceived } from '../../../components/ratings-received.tsx';
import { TraderRecordDetails } from '../../../components/trader-record.tsx';
import { TrustScales } from '../../../components/trust-scales.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.ts';
import { usePublicUser } from '../../../lib/trader-record.ts';
import { useBlockedUsers } from '../api/blocks.ts';
import { BlockButton } from './block-button.tsx';

/** `/users/{id}` with `id` as written in the address: anything but a positive whole number is no user. */
export function UserProfile({ id }: { id: string | undefined }) {
  const userId = /^[1-9]\d*$/.test(id ?? '') ? Number(id) : null;
  return userId === null || !Number.isSafeInteger(userId) ? <UserNotFound /> : <KnownUserProfile userId={userId} />;
}

function KnownUserProfile({ userId }: { userId: number }) {
  const { t } = useTranslation('users', { keyPrefix: 'profile' });
  const user = usePublicUser(userId);
  if (user.isPending) return <Page title={t('loading')} heading={null}><PageLoader label={t('loading')} /></Page>;
  if (user.isError && user.error instanceof ApiError && (user.error.status === 404 || user.error.status === 400)) return <UserNotFound />;
  if (!user.data) return <Page title={t('failedTitle')} heading={null}><Alert severity="error">{t('failed')}</Alert></Page>;
  return <ProfileOf person={user.data} />;
}

function ProfileOf({ person }: { person: PublicUser }) {
  const { t } = useTranslation('users', { keyPrefix: 'profile' });
  const { user: viewer } = useCurrentUser();
  const name = `${person.firstName} ${person.lastName}`;
  return (
    <Page title={name} heading={null} maxWidth="md">
      <Card component="section" aria-labelledby="user-name">
        <CardContent sx={{ p: { xs: 2, md: 3 } }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
            <UserAvatar firstName={person.firstName} lastName={person.lastName} profileImageUrl={person.profileImageUrl} size={80} />
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography id="user-name" variant="h1" component="h1" sx={{ fontSize: { xs: '1.6rem', md: '2rem' }, overflowWrap: 'anywhere' }}>{name}</Typography>
              <TrustScales trustLevel={person.trustLevel} trustRating={person.trustRating} />
            </Box>
          </Stack>
          {viewer && viewer.id === person.id ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
              {t('yours')} <Link component={RouterLink} to={paths.profile}>{t('toYourProfile')}</Link>
            </Typography>
          ) : null}
          {viewer && viewer.id !== person.id ? <Box sx={{ mt: 2 }}><Blocking userId={person.id} name={name} /></Box> : null}
        </CardContent>
      </Card>

      <Card component="section" aria-labelledby="user-record" sx={{ mt: 3 }}>
        <CardContent>
          <Typography id="user-record" variant="h5" component="h2">{t('record')}</Typography>
          <TraderRecordDetails person={person} />
        </CardContent>
      </Card>

      <Card component="section" aria-labelledby="user-ratings" sx={{ mt: 3 }}>
        <CardContent>
          <Typography id="user-ratings" variant="h5" component="h2" sx={{ mb: 1 }}>{t('ratings')}</Typography>
          {viewer ? <RatingsReceived userId={person.id} empty={t('noRatings', { name: person.firstName })} /> : (
            <Typography color="text.secondary">
              {t('ratingsSignIn', { name: person.firstName })}{' '}
              <Link component={RouterLink} to={paths.login}>{t('logIn')}</Link>
            </Typography>
          )}
        </CardContent>
      </Card>
    </Page>
  );
}

/** Block or Unblock, once the viewer's blocks are known (as on the directory's cards). */
function Blocking({ userId, name }: { userId: number; name: string }) {
  const blocked = useBlockedUsers();
  if (!blocked.data) return null;
  return <BlockButton userId={userId} name={name} blocked={blocked.data.some((b) => b.userId === userId)} />;
}

function UserNotFound() {
  const { t } = useTranslation('users', { keyPrefix: 'profile.notFound' });
  return (
    <Page title={t('title')} maxWidth="sm">
      <Typography color="text.secondary">{t('text')}</Typography>
      <Button component={RouterLink} to={paths.users} variant="contained" sx={{ mt: 3 }}>{t('directory')}</Button>
    </Page>
  );
}
