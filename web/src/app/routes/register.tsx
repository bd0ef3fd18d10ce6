import { Page } from '../../components/ui/page.tsx';
import { RegisterFlow } from '../../features/signup/components/register-flow.tsx';
import { useTranslation } from 'react-i18next';

export function RegisterRoute() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('register.title')} heading={t('register.heading')} subtitle={t('register.subtitle')} maxWidth="sm">
      <RegisterFlow />
    </Page>
  );
}
