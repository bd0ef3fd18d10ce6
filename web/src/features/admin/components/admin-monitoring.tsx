/**
 * Admin monitoring (spec section 2): four stat cards, filters (email, date from, date to) and four tabs: signup
 * failures, login failures, signup attempts, login attempts. Routed for any signed-in user; a non-admin sees a plain
 * message and no call is made (AdminsOnly).
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
import type { LoginAttempt, SignupAttempt } from '@puente/contracts';
import { errorMessage } from '../../../lib/api-client.ts';
import type { AttemptFilters, Page } from '../../../lib/query-keys.ts';
import { formatDateTime } from '../../../utils/format.ts';
import { useLoginFailures, useSignupFailures } from '../api/get-failure-stats.ts';
import { useLoginAttempts, useSignupAttempts } from '../api/get-attempts.ts';

export const ADMINS_ONLY_MESSAGE = 'This page is for admins only.';

export function AdminsOnly() {
  return (
    <Alert severity="info">
      {ADMINS_ONLY_MESSAGE} Sign-up and login monitoring is shown to Puente's administrators.
    </Alert>
  );
}

type TabName = 'signup-failures' | 'login-failures' | 'signup-attempts' | 'login-attempts';
const TabLabels: Record<TabName, string> = {
  'signup-failures': 'Signup Failures',
  'login-failures': 'Login Failures',
  'signup-attempts': 'Signup Attempts',
  'login-attempts': 'Login Attempts',
};

const noFilters: AttemptFilters = { email: '', from: '', to: '' };
const firstPage: Page = { limit: 25, offset: 0 };

export function AdminMonitoring() {
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
        <StatCard label="Signup failures" value={sum(signupFailures.data)} />
        <StatCard label="Login failures" value={sum(loginFailures.data)} />
        <StatCard label="Signup attempts" value={signupAttempts.data?.total} />
        <StatCard label="Login attempts" value={loginAttempts.data?.total} />
      </Box>

      <Card component="form" noValidate onSubmit={apply} aria-label="Filters" sx={{ mb: 3 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <TextField
              label="Email"
              type="email"
              size="small"
              value={draft.email}
              onChange={(event) => setDraft({ ...draft, email: event.target.value })}
              sx={{ flex: 2 }}
            />
            <TextField
              label="Date from"
              type="date"
              size="small"
              value={draft.from}
              onChange={(event) => setDraft({ ...draft, from: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: 1 }}
            />
            <TextField
              label="Date to"
              type="date"
              size="small"
              value={draft.to}
              onChange={(event) => setDraft({ ...draft, to: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: 1 }}
            />
            <Stack direction="row" spacing={1}>
              <Button type="submit" variant="contained">Apply</Button>
              <Button onClick={clear}>Clear</Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>

      <Card>
        <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
          <Tabs value={tab} onChange={(_event, value: TabName) => setTab(value)} variant="scrollable" scrollButtons="auto" aria-label="Monitoring">
            {(Object.keys(TabLabels) as TabName[]).map((name) => (
              <Tab key={name} label={TabLabels[name]} value={name} id={`tab-${name}`} aria-controls={`panel-${name}`} />
            ))}
          </Tabs>
        </Box>
        <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'signup-failures' ? (
            <Loaded query={signupFailures}>
              {(stats) => (
                <DataTable
                  label="Signup failures"
                  headers={['Step', 'Reason', 'Count']}
                  rows={stats.map((s) => [s.step, s.failureReason ?? '—', String(s.count)])}
                />
              )}
            </Loaded>
          ) : null}
          {tab === 'login-failures' ? (
            <Loaded query={loginFailures}>
              {(stats) => (
                <DataTable
                  label="Login failures"
                  headers={['Method', 'Reason', 'Count']}
                  rows={stats.map((s) => [s.method, s.failureReason ?? '—', String(s.count)])}
                />
              )}
            </Loaded>
          ) : null}
          {tab === 'signup-attempts' ? (
            <Loaded query={signupAttempts}>
              {(page) => (
                <>
                  <DataTable
                    label="Signup attempts"
                    headers={['Time', 'Email', 'Step', 'Status', 'Reason', 'Referral code', 'IP address', 'User agent']}
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
                  <DataTable
                    label="Login attempts"
                    headers={['Time', 'Email', 'Method', 'Status', 'Reason', 'IP address', 'User agent']}
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
          {value === undefined ? <Skeleton width={48} /> : value.toLocaleString('en-GB')}
        </Typography>
      </CardContent>
    </Card>
  );
}

function Loaded<T>({ query, children }: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Box sx={{ p: 2 }}><Skeleton variant="rounded" height={120} /></Box>;
  if (query.isError || query.data === undefined) {
    return <Alert severity="error" sx={{ m: 2 }}>Unable to load this list: {errorMessage(query.error)}</Alert>;
  }
  return <>{children(query.data)}</>;
}

function DataTable({ label, headers, rows }: { label: string; headers: string[]; rows: ReactNode[][] }) {
  if (rows.length === 0) return <Typography color="text.secondary" sx={{ p: 2 }}>Nothing recorded for these filters.</Typography>;
  return (
    <TableContainer>
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
