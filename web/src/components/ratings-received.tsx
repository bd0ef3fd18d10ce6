/**
 * The ratings a user received, newest first (GET /api/ratings/user/{id}, for signed-in readers): stars, the comment
 * and who gave it. On one's own profile and on another user's public profile.
 */
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Routes } from '@puente/contracts';
import { read } from '../lib/api-client.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { formatRelativeTime, ratingWord } from '../utils/format.ts';
import { StarRating } from './ui/trust.tsx';

export function useRatingsReceived(userId: number) {
  return useQuery({
    queryKey: queryKeys.ratingsForUser(userId),
    queryFn: async () => (await read(Routes.rating.forUser, { params: { userId } })) ?? [],
  });
}

/** `empty` says there are none in the reader's words (one's own profile says 'you' by default). */
export function RatingsReceived({ userId, empty }: { userId: number; empty?: string }) {
  const { t } = useTranslation('profile');
  const ratings = useRatingsReceived(userId);
  if (ratings.isPending) return <Skeleton variant="rounded" height={80} />;
  if (ratings.isError) return <Alert severity="info">{t('ratings.unavailable')}</Alert>;
  if (ratings.data.length === 0) return <Typography color="text.secondary">{empty ?? t('ratings.none')}</Typography>;
  return (
    <List disablePadding>
      {ratings.data.map((rating) => (
        <ListItem key={rating.id} divider alignItems="flex-start" disableGutters>
          <ListItemText
            primary={(
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <StarRating rating={rating.rating} />
                <span>{ratingWord(rating.rating)}</span>
              </Stack>
            )}
            secondary={`${rating.comment ? `“${rating.comment}” · ` : ''}${rating.fromUser.firstName ? `${rating.fromUser.firstName} · ` : ''}${formatRelativeTime(rating.createdAt)}`}
          />
        </ListItem>
      ))}
    </List>
  );
}
