import { useRouteError } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

/** A page that failed to render: say so and offer a reload, instead of a blank screen. */
export function ErrorRoute() {
  const error = useRouteError();
  console.error(error);
  return (
    <Container maxWidth="sm" sx={{ py: 8 }}>
      <Typography variant="h1" component="h1" sx={{ fontSize: '1.8rem', mb: 2 }}>Something went wrong</Typography>
      <Alert severity="error">This page could not be shown. Please reload it; if it keeps failing, try again later.</Alert>
      <Button variant="contained" sx={{ mt: 3 }} onClick={() => window.location.reload()}>Reload</Button>
    </Container>
  );
}
