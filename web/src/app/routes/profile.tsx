import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { ChangePasswordButton } from '../../features/auth/components/change-password-dialog.tsx';
import { ProfileView } from '../../features/profile/components/profile-view.tsx';
import { BlockedUsers } from '../../features/users/components/blocked-users.tsx';
import { DisputeOutcomes } from '../../components/dispute-outcomes.tsx';
import { useTranslation } from 'react-i18next';

export function ProfileRoute() {
  const { t } = useTranslation('pages');
  const user = useSignedInUser();
  return (
    <Page title={t('profile.title')} heading={null}>
      <ProfileView user={user} actions={<ChangePasswordButton />} />
      <DisputeOutcomes userId={user.id} />
      <BlockedUsers />
    </Page>
  );
}
