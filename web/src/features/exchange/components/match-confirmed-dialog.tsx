/**
 * Exchange match confirmed (spec sections 2 and 4): both parties' bank details with copy buttons ('Copied' for 2 s;
 * 'Could not copy text' on failure), the amount to send and the reference to quote. Fetched only for a confirmed or
 * completed match; where the server no longer shares them (a block between the parties, 30 days after completion,
 * a match called off: BankDetailsRefusal), its reason takes their place.
 */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { BankDetailsRefusal, formatRut, type BankAccount } from '@puente/contracts';
import { CheckIcon, CopyIcon } from '../../../components/ui/icons.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { formatCurrency, formatSortCode } from '../../../utils/format.ts';
import { useMatchAccounts } from '../api/matches.ts';
import { PayerNameCheck } from './payer-name-check.tsx';
import { receiveAmount } from '../money.ts';
import { serverText } from '../../../lib/i18n.ts';
import { ApiError } from '../../../lib/api-client.ts';

/** How long a copy button says 'Copied' (spec section 9). */
export const COPY_FEEDBACK_MS = 2_000;

function CopyButton({ text, what }: { text: string; what: string }) {
  const { t } = useTranslation('exchange');
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: t('bank.copied'), description: what, variant: 'success' });
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    } catch {
      toast({ title: t('bank.copyFailed'), variant: 'destructive' });
    }
  };
  return (
    <Button size="small" onClick={() => { void copy(); }} startIcon={copied ? <CheckIcon /> : <CopyIcon />} aria-label={t('bank.copy', { what })}>
      {copied ? t('bank.copied') : t('bank.copy', { what: '' }).trim()}
    </Button>
  );
}

function Detail({ label, value }: { label: string; value: string | null | undefined }) {
  if (!value) return null;
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
      <Box>
        <Typography variant="caption" color="text.secondary">{label}</Typography>
        <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{value}</Typography>
      </Box>
      <CopyButton text={value} what={label} />
    </Stack>
  );
}

function AccountDetails({ title, account }: { title: string; account: BankAccount }) {
  const { t } = useTranslation('exchange');
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={title}>
      <Typography sx={{ fontWeight: 700, mb: 1 }}>{title}</Typography>
      <Stack spacing={0.5}>
        <Detail label={t('bank.bankName')} value={account.bankName} />
        <Detail label={t('bankFields.accountHolder', { ns: 'common' })} value={account.accountHolder} />
        <Detail label={t('bankFields.accountNumber', { ns: 'common' })} value={account.accountNumber} />
        <Detail label={t('bankFields.sortCode', { ns: 'common' })} value={account.sortCode ? formatSortCode(account.sortCode) : null} />
        <Detail label={t('bankFields.rut', { ns: 'common' })} value={account.rut ? formatRut(account.rut) : null} />
        <Detail label={t('bankFields.accountType', { ns: 'common' })} value={account.accountType ? t(`accountTypes.${account.accountType}`, { ns: 'accounts' }) : null} />
        <Detail label={t('bankFields.email', { ns: 'common' })} value={account.email} />
        <Detail label={t('bankFields.iban', { ns: 'common' })} value={account.iban} />
      </Stack>
    </Paper>
  );
}

const withheldCodes: ReadonlySet<string> = new Set(Object.values(BankDetailsRefusal));

/** Whether the server refused because the details are no longer shared (not a fault). */
const isWithheld = (error: unknown) => error instanceof ApiError && withheldCodes.has(error.data?.code ?? '');

export function MatchConfirmedDialog({ matchId, onClose }: { matchId: number; onClose: () => void }) {
  const { t } = useTranslation('exchange');
  const accounts = useMatchAccounts(matchId);
  let body;
  if (accounts.isPending) body = <Stack sx={{ alignItems: 'center', py: 3 }}><CircularProgress aria-label={t('loading', { ns: 'common' })} /></Stack>;
  else if (accounts.isError && isWithheld(accounts.error)) {
    body = (
      <Alert severity="info" data-testid="bank-details-withheld">
        <AlertTitle>{t('bank.withheld')}</AlertTitle>
        {serverText(accounts.error)}
      </Alert>
    );
  } else if (accounts.isError) body = <Alert severity="error">{serverText(accounts.error)}</Alert>;
  else {
    const { exchangeDetails: x, myAccount, partnerAccount, partnerDetails, isRequestor } = accounts.data;
    const converted = receiveAmount(x.fromCurrency, x.amount, x.exchangeRate) ?? 0;
    // The requester sends the request's amount; the matcher sends its conversion.
    const send = isRequestor ? formatCurrency(x.amount, x.fromCurrency) : formatCurrency(converted, x.toCurrency);
    const receive = isRequestor ? formatCurrency(converted, x.toCurrency) : formatCurrency(x.amount, x.fromCurrency);
    const partnerName = `${partnerDetails.firstName} ${partnerDetails.lastName}`;
    body = (
      <Stack spacing={2}>
        <Typography>{t('bank.intro')}</Typography>
        <Alert severity="success" icon={false}>
          <Typography sx={{ fontWeight: 700 }} data-testid="amount-to-send">{t('bank.send', { amount: send, name: partnerName })}</Typography>
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
            <Typography>{t('bank.reference')}: <strong data-testid="transfer-reference">#{x.id}</strong></Typography>
            <CopyButton text={`#${x.id}`} what={t('bank.reference')} />
          </Stack>
        </Alert>
        <PayerNameCheck accounts={accounts.data} partnerName={partnerName} />
        <AccountDetails title={t('bank.partnerAccount', { name: partnerName })} account={partnerAccount} />
        <AccountDetails title={t('bank.myAccount', { amount: receive })} account={myAccount} />
      </Stack>
    );
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="match-confirmed-title">
      <DialogTitle id="match-confirmed-title">{t('bank.title')}</DialogTitle>
      <DialogContent>{body}</DialogContent>
      <DialogActions><Button onClick={onClose}>{t('bank.close')}</Button></DialogActions>
    </Dialog>
  );
}
