import { useRouteError } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** A page that failed to render: say so and offer a reload, instead of a blank screen. */
export function ErrorRoute() {
  const { t } = useTranslation('pages');
  const error = useRouteError();
  console.error(error);
  return (
    <Container maxWidth="sm" sx={{ py: 8 }}>
      <Typography variant="h1" component="h1" sx={{ fontSize: '1.8rem', mb: 2 }}>{t('error.heading')}</Typography>
      <Alert severity="error">{t('error.text')}</Alert>
      <Button variant="contained" sx={{ mt: 3 }} onClick={() => window.location.reload()}>{t('error.reload')}</Button>
    </Container>
  );
}
