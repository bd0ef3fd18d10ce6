import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { paths } from '../../config/paths.ts';

/** Footer links mostly point to /dashboard (spec section 2); the terms link points to /terms. */
export const FooterLinks = [
  { label: 'Exchange', to: paths.dashboard },
  { label: 'How it works', to: paths.dashboard },
  { label: 'Trust and safety', to: paths.dashboard },
  { label: 'Users', to: paths.users },
  { label: 'Terms', to: paths.terms },
] as const;

export function Footer() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 4, mt: 'auto', bgcolor: 'background.paper' }}>
      <Container maxWidth="lg">
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
          <Box sx={{ maxWidth: 460 }}>
            <Typography sx={{ fontWeight: 800, color: 'primary.main' }}>Puente</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              A peer-to-peer marketplace for swapping British pounds and Chilean pesos. Puente does not process or handle
              any money transfers: users pay through their own banks.
            </Typography>
          </Box>
          <Box component="nav" aria-label="Footer">
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {FooterLinks.map((link) => (
                <Link key={link.label} component={RouterLink} to={link.to} color="text.secondary" variant="body2">{link.label}</Link>
              ))}
            </Stack>
          </Box>
        </Stack>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 3 }}>
          © {new Date().getFullYear()} Puente
        </Typography>
      </Container>
    </Box>
  );
}
