/**
 * One bank account: bank, holder, the account number masked to its last 4 characters, edit and delete; flagged when
 * the holder is not the user's profile name (the payer-name check).
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatRut, type BankAccount } from '@puente/contracts';
import { DeleteIcon, EditIcon } from '../../../components/ui/icons.tsx';
import { formatSortCode, maskAccountNumber } from '../../../utils/format.ts';

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">{label}</Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>{value}</Typography>
    </>
  );
}

export function AccountCard({ account, onEdit, onDelete }: {
  account: BankAccount;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const { t } = useTranslation('accounts');
  return (
    <Card component="article" aria-label={t('card.label', { currency: account.currency, bank: account.bankName })}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
          <Box sx={{ minWidth: 0 }}>
            <Chip label={account.currency} color={account.currency === 'GBP' ? 'primary' : 'secondary'} size="small" />
            <Typography variant="h6" component="h3" sx={{ mt: 1, overflowWrap: 'anywhere' }}>{account.bankName}</Typography>
            <Typography variant="body2" color="text.secondary">{t(`currencyNames.${account.currency}`)}</Typography>
          </Box>
          {onEdit || onDelete ? (
            <Stack direction="row">
              {onEdit ? (
                <Tooltip title={t('card.edit')}>
                  <IconButton aria-label={t('card.editLabel', { currency: account.currency })} onClick={onEdit}><EditIcon /></IconButton>
                </Tooltip>
              ) : null}
              {onDelete ? (
                <Tooltip title={t('card.delete')}>
                  <IconButton aria-label={t('card.deleteLabel', { currency: account.currency })} onClick={onDelete} color="error"><DeleteIcon /></IconButton>
                </Tooltip>
              ) : null}
            </Stack>
          ) : null}
        </Stack>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, mt: 2, mb: 0 }}>
          <Detail label={t('bankFields.accountHolder', { ns: 'common' })} value={account.accountHolder} />
          <Detail label={t('bankFields.accountNumber', { ns: 'common' })} value={maskAccountNumber(account.accountNumber)} />
          {account.sortCode ? <Detail label={t('bankFields.sortCode', { ns: 'common' })} value={formatSortCode(account.sortCode)} /> : null}
          {account.rut ? <Detail label={t('bankFields.rut', { ns: 'common' })} value={formatRut(account.rut)} /> : null}
          {account.accountType ? <Detail label={t('bankFields.accountType', { ns: 'common' })} value={t(`accountTypes.${account.accountType}`)} /> : null}
          {account.email ? <Detail label={t('bankFields.email', { ns: 'common' })} value={account.email} /> : null}
          {account.iban ? <Detail label={t('bankFields.iban', { ns: 'common' })} value={maskAccountNumber(account.iban)} /> : null}
        </Box>
        {account.holderMatchesName === false ? (
          <Alert severity="warning" sx={{ mt: 2 }}>
            <AlertTitle>{t('card.holderMismatchTitle')}</AlertTitle>
            {t('card.holderMismatch', { holder: account.accountHolder })}
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}
