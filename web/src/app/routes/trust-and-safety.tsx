/**
 * /trust-and-safety (public, beyond the spec; the footer's 'Trust and safety'): how a trade works, disputes, what
 * Puente never does, the trust rating, trust level and directory tier, and how to report a problem.
 */
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page.tsx';
import { paths } from '../../config/paths.ts';

/** A titled region of the page: a section named by its h2, reachable by its id (#trust-scales). */
function Section({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  return (
    <Box component="section" id={id} aria-labelledby={`${id}-heading`} sx={{ mb: 4, scrollMarginTop: 80 }}>
      <Typography id={`${id}-heading`} variant="h2" component="h2" sx={{ fontSize: '1.35rem', mb: 1.5 }}>{heading}</Typography>
      {children}
    </Box>
  );
}

function List({ items, ordered = false }: { items: string[]; ordered?: boolean }) {
  return (
    <Box component={ordered ? 'ol' : 'ul'} sx={{ pl: 3, my: 1, '& > li': { mb: 1 } }}>
      {items.map((item) => <Typography component="li" key={item}>{item}</Typography>)}
    </Box>
  );
}

export function TrustAndSafetyRoute() {
  const { t } = useTranslation('trust');
  const items = (key: string) => t(key, { returnObjects: true }) as string[];
  return (
    <Page title={t('page.title')} subtitle={t('page.intro')} maxWidth="md">
      <Section id="how-a-trade-works" heading={t('page.how.heading')}>
        <Typography>{t('page.how.text')}</Typography>
        <List items={items('page.how.steps')} ordered />
      </Section>
      <Section id="disputes" heading={t('page.disputes.heading')}>
        <List items={items('page.disputes.items')} />
      </Section>
      <Section id="never" heading={t('page.never.heading')}>
        <List items={items('page.never.items')} />
        {/* A note, not an alert: it is part of the page, not news to announce. */}
        <Alert severity="warning" role="note" sx={{ mt: 1 }}>{t('page.never.warning')}</Alert>
      </Section>
      <Section id="trust-scales" heading={t('page.scales.heading')}>
        <Typography>{t('page.scales.intro')}</Typography>
        <List items={[t('scales.rating.explain'), t('scales.level.explain'), t('scales.tier.explain')]} />
      </Section>
      <Section id="report" heading={t('page.report.heading')}>
        <List items={items('page.report.items')} />
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button variant="outlined" component={RouterLink} to={paths.help}>{t('page.report.help')}</Button>
          <Button variant="outlined" component={RouterLink} to={paths.users}>{t('page.report.directory')}</Button>
        </Stack>
      </Section>
    </Page>
  );
}
