import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The three-step explainer (spec section 1), word for word. */
export function HowItWorks() {
  const { t } = useTranslation('landing');
  const steps = t('how.steps', { returnObjects: true }) as string[];
  return (
    <Box component="section" aria-labelledby="how-heading" sx={{ py: { xs: 5, md: 8 } }}>
      <Container maxWidth="lg">
        <Typography id="how-heading" variant="h2" component="h2" sx={{ textAlign: 'center', mb: 4, fontSize: { xs: '1.5rem', md: '1.9rem' } }}>
          {t('how.heading')}
        </Typography>
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {steps.map((step, index) => (
            <Card component="li" key={step}>
              <CardContent>
                <Box
                  aria-hidden="true"
                  sx={{ width: 40, height: 40, borderRadius: '50%', bgcolor: 'primary.main', color: 'primary.contrastText', display: 'grid', placeItems: 'center', fontWeight: 700, mb: 2 }}
                >
                  {index + 1}
                </Box>
                <Typography variant="h6" component="p">{step}</Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
