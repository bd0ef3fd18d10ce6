/**
 * The dashboard's accounts section (spec section 2): a Manage link to /accounts and three states: no accounts,
 * only one account (add the other currency), both accounts.
 */
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { BankIcon } from '../../../components/ui/icons.tsx';
import { useCurrentUser } from '../../../lib/auth.ts';
import { maskAccountNumber } from '../../../utils/format.ts';
import { useBankAccounts } from '../api/get-bank-accounts.ts';
import { hasBothAccounts, missingCurrencies } from '../accounts.ts';
import { serverText } from '../../../lib/i18n.ts';

export function AccountsOverview() {
  const { t } = useTranslation('accounts');
  const accountsQuery = useBankAccounts();
  const { user } = useCurrentUser();
  const accounts = accountsQuery.data ?? [];
  const missing = missingCurrencies(accounts);

  let body;
  if (accountsQuery.isPending) {
    body = <Skeleton variant="rounded" height={72} />;
  } else if (accountsQuery.isError) {
    body = <Alert severity="error">{t('loadFailed', { message: serverText(accountsQuery.error) })}</Alert>;
  } else if (accounts.length === 0) {
    body = (
      <Box sx={{ textAlign: 'center', py: 2 }}>
        <Typography sx={{ fontWeight: 600 }}>{t('overview.noneYet')}</Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t('overview.startText')}
        </Typography>
        <Button component={RouterLink} to={paths.accounts} variant="contained" sx={{ mt: 2 }}>{t('overview.addAccounts')}</Button>
      </Box>
    );
  } else {
    body = (
      <Stack spacing={1.5}>
        {accounts.map((account) => (
          <Stack key={account.id} direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <BankIcon color="action" />
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600 }}>{account.currency} · {account.bankName}</Typography>
              <Typography variant="body2" color="text.secondary">{maskAccountNumber(account.accountNumber)}</Typography>
            </Box>
          </Stack>
        ))}
        {!hasBothAccounts(accounts, user) && missing[0] ? (
          <Alert severity="info" action={<Button color="inherit" component={RouterLink} to={paths.accounts}>{t('overview.addMissing', { currency: missing[0] })}</Button>}>
            {t('overview.addMissingText', { currency: missing[0] })}
          </Alert>
        ) : null}
      </Stack>
    );
  }

  return (
    <Card component="section" aria-labelledby="accounts-overview-heading">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
          <Typography id="accounts-overview-heading" variant="h6" component="h2">{t('overview.title')}</Typography>
          <Button component={RouterLink} to={paths.accounts} size="small">{t('overview.manage')}</Button>
        </Stack>
        {body}
      </CardContent>
    </Card>
  );
}
