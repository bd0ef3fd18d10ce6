import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

/** What the landing page promises (spec section 1), and that the product moves no money. */
export const Benefits = [
  { title: 'Better rates', text: 'Agree a rate with another person instead of paying a bank or money-transfer margin.' },
  { title: 'A trusted community', text: 'Everyone is rated after each exchange, so you can see who you are dealing with.' },
  { title: 'No hidden fees', text: 'You send money through your own bank, at what your bank charges. Nothing is added on top.' },
  { title: 'Details shared only on confirmation', text: 'Bank details are shown only when both parties have confirmed the exchange.' },
] as const;

export function BenefitsSection() {
  return (
    <Box component="section" aria-labelledby="benefits-heading" sx={{ py: { xs: 5, md: 8 }, bgcolor: 'action.hover' }}>
      <Container maxWidth="lg">
        <Typography id="benefits-heading" variant="h2" component="h2" sx={{ textAlign: 'center', mb: 4, fontSize: { xs: '1.5rem', md: '1.9rem' } }}>
          Why Puente
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' } }}>
          {Benefits.map((benefit) => (
            <Card key={benefit.title}>
              <CardContent>
                <Typography variant="h6" component="h3" sx={{ mb: 1 }}>{benefit.title}</Typography>
                <Typography color="text.secondary">{benefit.text}</Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
        <Alert severity="info" sx={{ mt: 4 }}>
          Puente does not process or handle any money transfers: you pay and receive through your own banks.
        </Alert>
      </Container>
    </Box>
  );
}
