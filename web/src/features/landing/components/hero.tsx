import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';

/** The landing hero: Log In goes to /login, Sign Up scrolls to the referral section (spec section 2). */
export function Hero({ onSignUp }: { onSignUp: () => void }) {
  const { t } = useTranslation('landing');
  return (
    <Box
      component="section"
      aria-labelledby="hero-heading"
      sx={{
        py: { xs: 6, md: 10 },
        background: (theme) => theme.palette.mode === 'light'
          ? 'linear-gradient(135deg, #e8f1fc 0%, #fdf1ee 100%)'
          : 'linear-gradient(135deg, #13233a 0%, #2a1715 100%)',
      }}
    >
      <Container maxWidth="md" sx={{ textAlign: 'center' }}>
        <Typography variant="overline" color="primary" sx={{ fontWeight: 700, letterSpacing: 2 }}>{t('hero.overline')}</Typography>
        <Typography id="hero-heading" variant="h1" component="h1" sx={{ fontSize: { xs: '2rem', md: '3rem' }, mt: 1 }}>
          {t('hero.heading')}
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 2, fontWeight: 400 }}>
          {t('hero.text')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 4, justifyContent: 'center' }}>
          <Button component={RouterLink} to={paths.login} variant="outlined" size="large">{t('hero.logIn')}</Button>
          <Button variant="contained" size="large" onClick={onSignUp}>{t('hero.signUp')}</Button>
        </Stack>
      </Container>
    </Box>
  );
}
