import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/ui/page.tsx';
import { useTranslation } from 'react-i18next';

export function TermsRoute() {
  const { t } = useTranslation('pages');
  const sections = t('terms.sections', { returnObjects: true }) as { heading: string; text: string }[];
  return (
    <Page title={t('terms.title')} maxWidth="md">
      {sections.map((section) => (
        <Box component="section" key={section.heading} sx={{ mb: 3 }}>
          <Typography variant="h2" component="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>{section.heading}</Typography>
          <Typography>{section.text}</Typography>
        </Box>
      ))}
    </Page>
  );
}
