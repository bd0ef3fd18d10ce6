import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page.tsx';
import { TransactionHistory } from '../../features/history/components/transaction-history.tsx';

/** /history: the completed exchanges (spec section 2). */
export function HistoryRoute() {
  const { t } = useTranslation('history');
  return (
    <Page title={t('title')} subtitle={t('subtitle')} maxWidth="md">
      <TransactionHistory />
    </Page>
  );
}
