/**
 * The payer-name check in the bank details (Peach's third-party payment rule): whose account the partner's money must
 * come from, and a warning where an account holder is not that user's profile name (the accounts service's flag).
 */
import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import type { MatchAccountsResponse } from '@puente/contracts';

export function PayerNameCheck({ accounts, partnerName }: { accounts: MatchAccountsResponse; partnerName: string }) {
  const { t } = useTranslation('exchange');
  const { myAccount, partnerAccount, expectedPayer } = accounts;
  return (
    <>
      {expectedPayer ? (
        <Alert severity="info" data-testid="expected-payer">{t('bank.payerName', { name: expectedPayer.accountHolder })}</Alert>
      ) : null}
      {partnerAccount.holderMatchesName === false || expectedPayer?.holderMatchesName === false ? (
        <Alert severity="warning" data-testid="partner-holder-mismatch">{t('bank.partnerHolderMismatch', { name: partnerName })}</Alert>
      ) : null}
      {myAccount.holderMatchesName === false ? (
        <Alert severity="warning" data-testid="my-holder-mismatch">
          {t('bank.myHolderMismatch', { holder: myAccount.accountHolder, name: partnerName })}
        </Alert>
      ) : null}
    </>
  );
}
