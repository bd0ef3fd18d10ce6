/**
 * The accounts page (spec section 2): the warning while a currency is missing, tabs 'My Accounts' and 'Add
 * Account', add cards disabled as 'Account Added' once that currency exists, the security note.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { BankAccount, Currency } from '@puente/contracts';
import { PageLoader } from '../../../components/ui/page.tsx';
import { AddIcon, CheckIcon } from '../../../components/ui/icons.tsx';
import { useBankAccounts } from '../api/get-bank-accounts.ts';
import { Currencies, missingCurrencies } from '../accounts.ts';
import { AccountCard } from './account-card.tsx';
import { AccountDialog, type AccountDialogMode } from './account-dialog.tsx';
import { DeleteAccountDialog } from './delete-account-dialog.tsx';
import { SecurityNote } from './security-note.tsx';
import { serverText } from '../../../lib/i18n.ts';

type TabName = 'mine' | 'add';

export function MissingAccountsWarning({ missing }: { missing: readonly Currency[] }) {
  const { t } = useTranslation('accounts');
  if (missing.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 3 }}>
      <AlertTitle>{missing.length === 2 ? t('missing.none') : t('missing.one', { currency: missing[0] })}</AlertTitle>
      {t('missing.needBoth')}{' '}
      {missing.length === 2 ? t('missing.addBoth') : t('missing.addOne', { currency: missing[0] })}
    </Alert>
  );
}

export function AccountsManager() {
  const { t } = useTranslation('accounts');
  const accountsQuery = useBankAccounts();
  const [tab, setTab] = useState<TabName>('mine');
  const [dialog, setDialog] = useState<AccountDialogMode | null>(null);
  const [deleting, setDeleting] = useState<BankAccount | null>(null);

  if (accountsQuery.isPending) return <PageLoader label={t('loading')} />;
  if (accountsQuery.isError) {
    return (
      <Alert severity="error" action={<Button color="inherit" onClick={() => void accountsQuery.refetch()}>{t('retry')}</Button>}>
        {t('loadFailed', { message: serverText(accountsQuery.error) })}
      </Alert>
    );
  }
  const accounts = accountsQuery.data;
  const missing = missingCurrencies(accounts);

  return (
    <Box>
      <MissingAccountsWarning missing={missing} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs value={tab} onChange={(_event, value: TabName) => setTab(value)} aria-label={t('tabs.label')}>
          <Tab label={t('tabs.mine')} value="mine" id="tab-mine" aria-controls="panel-mine" />
          <Tab label={t('tabs.add')} value="add" id="tab-add" aria-controls="panel-add" />
        </Tabs>
      </Box>

      <Box role="tabpanel" id="panel-mine" aria-labelledby="tab-mine" hidden={tab !== 'mine'}>
        {tab === 'mine' ? (
          accounts.length === 0 ? (
            <Box sx={{ textAlign: 'center', py: 5 }}>
              <Typography color="text.secondary">{t('noneYet')}</Typography>
              <Button variant="contained" startIcon={<AddIcon />} sx={{ mt: 2 }} onClick={() => setTab('add')}>{t('addAccount')}</Button>
            </Box>
          ) : (
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
              {accounts.map((account) => (
                <AccountCard
                  key={account.id}
                  account={account}
                  onEdit={() => setDialog({ kind: 'edit', account })}
                  onDelete={() => setDeleting(account)}
                />
              ))}
            </Box>
          )
        ) : null}
      </Box>

      <Box role="tabpanel" id="panel-add" aria-labelledby="tab-add" hidden={tab !== 'add'}>
        {tab === 'add' ? (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
            {Currencies.map((currency) => {
              const added = accounts.some((account) => account.currency === currency);
              return (
                <Card key={currency} component="section" aria-labelledby={`add-${currency}-heading`} sx={{ display: 'flex', flexDirection: 'column' }}>
                  <CardContent sx={{ flex: 1 }}>
                    <Typography id={`add-${currency}-heading`} variant="h6" component="h3">{t('currencyAccount', { currency })}</Typography>
                    <Typography variant="body2" color="text.secondary">{t(`currencyNames.${currency}`)}</Typography>
                    <Typography sx={{ mt: 1.5 }}>{t(`addCardText.${currency}`)}</Typography>
                  </CardContent>
                  <CardActions sx={{ px: 2, pb: 2 }}>
                    <Button
                      variant={added ? 'outlined' : 'contained'}
                      disabled={added}
                      startIcon={added ? <CheckIcon /> : <AddIcon />}
                      onClick={() => setDialog({ kind: 'add', currency })}
                      fullWidth
                    >
                      {added ? t('added') : t('addCurrencyAccount', { currency })}
                    </Button>
                  </CardActions>
                </Card>
              );
            })}
          </Box>
        ) : null}
      </Box>

      <SecurityNote />

      {dialog ? <AccountDialog mode={dialog} onClose={() => setDialog(null)} onSaved={() => setTab('mine')} /> : null}
      {deleting ? <DeleteAccountDialog account={deleting} onClose={() => setDeleting(null)} /> : null}
    </Box>
  );
}
