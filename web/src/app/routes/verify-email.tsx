import { Page } from '../../components/ui/page.tsx';
import { VerifyEmail } from '../../features/signup/components/verify-email.tsx';
import { useTranslation } from 'react-i18next';

export function VerifyEmailRoute() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('verifyEmail.title')} heading={t('verifyEmail.heading')} maxWidth="sm">
      <VerifyEmail />
    </Page>
  );
}
