/**
 * Admin monitoring (spec section 2): four stat cards, filters (email, date from, date to) and four tabs: signup
 * failures, login failures, signup attempts, login attempts (each attempt list exportable as CSV, beyond the spec).
 * Routed for any signed-in user; a non-admin sees a plain message and no call is made (AdminsOnly).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { LoginAttempt, SignupAttempt } from '@puente/contracts';
import type { AttemptFilters, Page } from '../../../lib/query-keys.ts';
import { formatDateTime, formatNumber } from '../../../utils/format.ts';
import { useLoginFailures, useSignupFailures } from '../api/get-failure-stats.ts';
import { useLoginAttempts, useSignupAttempts } from '../api/get-attempts.ts';
import { ExportButton } from './export-button.tsx';
import { Loaded } from './loaded.tsx';

export function AdminsOnly() {
  const { t } = useTranslation('admin');
  return (
    <Alert severity="info">
      {t('adminsOnly')} {t('adminsOnlyText')}
    </Alert>
  );
}

const tabNames = ['signup-failures', 'login-failures', 'signup-attempts', 'login-attempts'] as const;
type TabName = typeof tabNames[number];

const noFilters: AttemptFilters = { email: '', from: '', to: '' };
const firstPage: Page = { limit: 25, offset: 0 };

export function AdminMonitoring() {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState<AttemptFilters>(noFilters);
  const [filters, setFilters] = useState<AttemptFilters>(noFilters);
  const [tab, setTab] = useState<TabName>('signup-failures');
  const [signupPage, setSignupPage] = useState<Page>(firstPage);
  const [loginPage, setLoginPage] = useState<Page>(firstPage);

  const signupFailures = useSignupFailures(filters);
  const loginFailures = useLoginFailures(filters);
  const signupAttempts = useSignupAttempts(filters, signupPage);
  const loginAttempts = useLoginAttempts(filters, loginPage);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ email: draft.email.trim(), from: draft.from, to: draft.to });
    setSignupPage(firstPage);
    setLoginPage(firstPage);
  };
  const clear = () => {
    setDraft(noFilters);
    setFilters(noFilters);
    setSignupPage(firstPage);
    setLoginPage(firstPage);
  };

  const sum = (stats: { count: number }[] | undefined) => stats?.reduce((total, s) => total + s.count, 0);

  return (
    <Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, mb: 3 }}>
        <StatCard label={t('stats.signupFailures')} value={sum(signupFailures.data)} />
        <StatCard label={t('stats.loginFailures')} value={sum(loginFailures.data)} />
        <StatCard label={t('stats.signupAttempts')} value={signupAttempts.data?.total} />
        <StatCard label={t('stats.loginAttempts')} value={loginAttempts.data?.total} />
      </Box>

      <Card component="form" noValidate onSubmit={apply} aria-label={t('filters.label')} sx={{ mb: 3 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <TextField
              label={t('filters.email')}
              type="email"
              size="small"
              value={draft.email}
              onChange={(event) => setDraft({ ...draft, email: event.target.value })}
              sx={{ flex: 2 }}
            />
            <TextField
              label={t('filters.from')}
              type="date"
              size="small"
              value={draft.from}
              onChange={(event) => setDraft({ ...draft, from: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: 1 }}
            />
            <TextField
              label={t('filters.to')}
              type="date"
              size="small"
              value={draft.to}
              onChange={(event) => setDraft({ ...draft, to: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: 1 }}
            />
            <Stack direction="row" spacing={1}>
              <Button type="submit" variant="contained">{t('filters.apply')}</Button>
              <Button onClick={clear}>{t('filters.clear')}</Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>

      <Card>
        <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
          <Tabs value={tab} onChange={(_event, value: TabName) => setTab(value)} variant="scrollable" scrollButtons="auto" aria-label={t('tabs.label')}>
            {tabNames.map((name) => (
              <Tab key={name} label={t(`tabs.${name}`)} value={name} id={`tab-${name}`} aria-controls={`panel-${name}`} />
            ))}
          </Tabs>
        </Box>
        <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'signup-failures' ? (
            <Loaded query={signupFailures}>
              {(stats) => (
                <DataTable
                  label={t('stats.signupFailures')}
                  headers={[t('columns.step'), t('columns.reason'), t('columns.count')]}
                  rows={stats.map((s) => [s.step, s.failureReason ?? '—', String(s.count)])}
                />
              )}
            </Loaded>
          ) : null}
          {tab === 'login-failures' ? (
            <Loaded query={loginFailures}>
              {(stats) => (
                <DataTable
                  label={t('stats.loginFailures')}
                  headers={[t('columns.method'), t('columns.reason'), t('columns.count')]}
                  rows={stats.map((s) => [s.method, s.failureReason ?? '—', String(s.count)])}
                />
              )}
            </Loaded>
          ) : null}
          {tab === 'signup-attempts' ? (
            <Loaded query={signupAttempts}>
              {(page) => (
                <>
                  <ListToolbar><ExportButton list="signup" filters={filters} /></ListToolbar>
                  <DataTable
                    label={t('stats.signupAttempts')}
                    headers={[t('columns.time'), t('columns.email'), t('columns.step'), t('columns.status'), t('columns.reason'), t('columns.referralCode'), t('columns.ip'), t('columns.userAgent')]}
                    rows={page.items.map((a: SignupAttempt) => [
                      formatDateTime(a.createdAt), a.email, a.step, <StatusChip key="s" status={a.status} />, a.failureReason ?? '—',
                      a.referralCode ?? '—', a.ipAddress ?? '—', <UserAgent key="u" value={a.userAgent} />,
                    ])}
                  />
                  <Pager total={page.total} page={signupPage} onChange={setSignupPage} />
                </>
              )}
            </Loaded>
          ) : null}
          {tab === 'login-attempts' ? (
            <Loaded query={loginAttempts}>
              {(page) => (
                <>
                  <ListToolbar><ExportButton list="login" filters={filters} /></ListToolbar>
                  <DataTable
                    label={t('stats.loginAttempts')}
                    headers={[t('columns.time'), t('columns.email'), t('columns.method'), t('columns.status'), t('columns.reason'), t('columns.ip'), t('columns.userAgent')]}
                    rows={page.items.map((a: LoginAttempt) => [
                      formatDateTime(a.createdAt), a.email, a.method, <StatusChip key="s" status={a.status} />, a.failureReason ?? '—',
                      a.ipAddress ?? '—', <UserAgent key="u" value={a.userAgent} />,
                    ])}
                  />
                  <Pager total={page.total} page={loginPage} onChange={setLoginPage} />
                </>
              )}
            </Loaded>
          ) : null}
        </Box>
      </Card>
    </Box>
  );
}

function StatCard({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="body2" color="text.secondary">{label}</Typography>
        <Typography variant="h4" component="p" sx={{ mt: 0.5, fontWeight: 700 }}>
          {value === undefined ? <Skeleton width={48} /> : formatNumber(value)}
        </Typography>
      </CardContent>
    </Card>
  );
}

function ListToolbar({ children }: { children: ReactNode }) {
  return <Stack direction="row" sx={{ justifyContent: 'flex-end', px: 2, pt: 2 }}>{children}</Stack>;
}

function DataTable({ label, headers, rows }: { label: string; headers: string[]; rows: ReactNode[][] }) {
  const { t } = useTranslation('admin');
  if (rows.length === 0) return <Typography color="text.secondary" sx={{ p: 2 }}>{t('nothing')}</Typography>;
  return (
    // Wider than the page on a narrow screen: focusable, so its sideways scroll works from the keyboard (WCAG 2.1.1).
    <TableContainer tabIndex={0} role="region" aria-label={label}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>{headers.map((h) => <TableCell key={h} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>{h}</TableCell>)}</TableRow>
        </TableHead>
        <TableBody>
          {rows.map((cells, i) => (
            <TableRow key={i} hover>
              {cells.map((cell, j) => <TableCell key={j} sx={{ whiteSpace: j === 0 ? 'nowrap' : undefined }}>{cell}</TableCell>)}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function StatusChip({ status }: { status: string }) {
  const color = status === 'failed' ? 'error' : status === 'completed' || status === 'success' ? 'success' : 'default';
  return <Chip size="small" label={status} color={color} variant="outlined" />;
}

function UserAgent({ value }: { value: string | null }) {
  if (!value) return <>—</>;
  return (
    <Box component="span" title={value} sx={{ display: 'inline-block', maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' }}>
      {value}
    </Box>
  );
}

function Pager({ total, page, onChange }: { total: number; page: Page; onChange: (page: Page) => void }) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={Math.floor(page.offset / page.limit)}
      rowsPerPage={page.limit}
      rowsPerPageOptions={[25, 50, 100]}
      onPageChange={(_event, n) => onChange({ ...page, offset: n * page.limit })}
      onRowsPerPageChange={(event) => onChange({ limit: Number(event.target.value), offset: 0 })}
    />
  );
}
