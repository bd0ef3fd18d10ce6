/** Page scaffolding: the document title and a centred, padded column with the page's heading. */
import { useEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export const APP_NAME = 'Puente';

/** Sets the document title to `<title> | Puente` while the page is shown. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | ${APP_NAME}`;
  }, [title]);
}

export function Page({ title, heading, subtitle, children, maxWidth = 'lg' }: {
  title: string;
  heading?: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  maxWidth?: 'sm' | 'md' | 'lg';
}) {
  usePageTitle(title);
  return (
    <Container maxWidth={maxWidth} sx={{ py: { xs: 3, md: 5 } }}>
      {heading === null ? null : (
        <Box sx={{ mb: 3 }}>
          <Typography variant="h1" component="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' } }}>{heading ?? title}</Typography>
          {subtitle ? <Typography color="text.secondary" sx={{ mt: 1 }}>{subtitle}</Typography> : null}
        </Box>
      )}
      {children}
    </Container>
  );
}

export function PageLoader({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Box role="progressbar" aria-label={label ?? t('loading')} sx={{ display: 'flex', justifyContent: 'center', py: 10 }}>
      <CircularProgress aria-hidden="true" />
    </Box>
  );
}
