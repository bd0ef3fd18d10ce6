import { Page } from '../../components/ui/page.tsx';
import { AccountsManager } from '../../features/accounts/components/accounts-manager.tsx';
import { useTranslation } from 'react-i18next';

export function AccountsRoute() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('accounts.title')} subtitle={t('accounts.subtitle')}>
      <AccountsManager />
    </Page>
  );
}
