import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';

/** What the landing page promises (spec section 1), that the product moves no money, and where trades' safety is told. */
export function BenefitsSection() {
  const { t } = useTranslation('landing');
  const benefits = t('benefits.items', { returnObjects: true }) as { title: string; text: string }[];
  return (
    <Box component="section" aria-labelledby="benefits-heading" sx={{ py: { xs: 5, md: 8 }, bgcolor: 'action.hover' }}>
      <Container maxWidth="lg">
        <Typography id="benefits-heading" variant="h2" component="h2" sx={{ textAlign: 'center', mb: 4, fontSize: { xs: '1.5rem', md: '1.9rem' } }}>
          {t('benefits.heading')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' } }}>
          {benefits.map((benefit) => (
            <Card key={benefit.title}>
              <CardContent>
                <Typography variant="h6" component="h3" sx={{ mb: 1 }}>{benefit.title}</Typography>
                <Typography color="text.secondary">{benefit.text}</Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
        {/* A note, not an alert: part of the page, not news for a screen reader to interrupt with. */}
        <Alert severity="info" role="note" sx={{ mt: 4 }}>
          {t('benefits.noTransfers')}{' '}
          <Link component={RouterLink} to={paths.trustAndSafety} color="inherit" sx={{ fontWeight: 600 }}>{t('benefits.safety')}</Link>
        </Alert>
      </Container>
    </Box>
  );
}
