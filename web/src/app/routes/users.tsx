import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page.tsx';
import { UserDirectory } from '../../features/users/components/user-directory.tsx';

export function UsersRoute() {
  const { t } = useTranslation('users');
  return (
    <Page title={t('title')} subtitle={t('subtitle')}>
      <UserDirectory />
    </Page>
  );
}
