import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/ui/page.tsx';
import { paths } from '../../config/paths.ts';

export const NOT_FOUND_TEXT = '404 Page Not Found';

export function NotFoundRoute() {
  return (
    <Page title="Page Not Found" heading={NOT_FOUND_TEXT} maxWidth="sm">
      <Typography color="text.secondary">The page you are looking for does not exist or has moved.</Typography>
      <Button component={RouterLink} to={paths.home} variant="contained" sx={{ mt: 3 }}>Go to the home page</Button>
    </Page>
  );
}
