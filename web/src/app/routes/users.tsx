import { Page } from '../../components/ui/page.tsx';
import { UserDirectory } from '../../features/users/components/user-directory.tsx';

export function UsersRoute() {
  return (
    <Page title="User Directory" subtitle="Everyone on Puente, with their tier by rating.">
      <UserDirectory />
    </Page>
  );
}
