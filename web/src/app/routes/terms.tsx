import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/ui/page.tsx';

const sections = [
  {
    heading: 'What Puente is',
    text: 'Puente is a marketplace where people who want to swap British pounds (GBP) and Chilean pesos (CLP) find each other. It moves no money: Puente does not process, hold or handle any money transfers. You and the other person pay each other through your own banks.',
  },
  {
    heading: 'Your responsibility',
    text: 'You decide whom to exchange with and when to send money. Check the other person\'s ratings and the agreed amounts before you transfer. Puente cannot reverse, refund or guarantee a transfer between banks.',
  },
  {
    heading: 'Your accounts and details',
    text: 'Add only bank accounts in your own name, and keep your details accurate. Your bank details are shown to the other party only once you have both confirmed an exchange.',
  },
  {
    heading: 'Fair use',
    text: 'Use Puente only for lawful exchanges of your own money. Do not create accounts for others, misrepresent yourself or rate unfairly. We may suspend accounts that break these rules.',
  },
  {
    heading: 'Plans',
    text: 'The free plan and the premium plan limit the size and number of exchanges as the subscription page shows. Premium is billed monthly and can be cancelled at any time.',
  },
];

export function TermsRoute() {
  return (
    <Page title="Terms of Use" maxWidth="md">
      {sections.map((section) => (
        <Box component="section" key={section.heading} sx={{ mb: 3 }}>
          <Typography variant="h2" component="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>{section.heading}</Typography>
          <Typography>{section.text}</Typography>
        </Box>
      ))}
    </Page>
  );
}
