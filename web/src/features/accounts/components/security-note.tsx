import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { ShieldIcon } from '../../../components/ui/icons.tsx';

/** The accounts page's security note (spec section 2). */
export function SecurityNote() {
  const { t } = useTranslation('accounts');
  const points = t('security.points', { returnObjects: true }) as string[];
  return (
    <Alert severity="info" icon={<ShieldIcon />} sx={{ mt: 3 }}>
      <AlertTitle>{t('security.title')}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {points.map((point) => <li key={point}>{point}</li>)}
      </Box>
    </Alert>
  );
}
