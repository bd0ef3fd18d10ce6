import { Page } from '../../components/ui/page.tsx';
import { useSignedInUser } from '../../lib/auth.ts';
import { ChangePasswordButton } from '../../features/auth/components/change-password-dialog.tsx';
import { ProfileView } from '../../features/profile/components/profile-view.tsx';

export function ProfileRoute() {
  const user = useSignedInUser();
  return (
    <Page title="Profile" heading={null}>
      <ProfileView user={user} actions={<ChangePasswordButton />} />
    </Page>
  );
}
