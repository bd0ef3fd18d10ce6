import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { ShieldIcon } from '../../../components/ui/icons.tsx';

/** The accounts page's security note (spec section 2). */
export const SecurityPoints = [
  'Your bank details are shared only when both parties confirm an exchange.',
  'Puente does not process or handle any money transfers: you transfer through your own bank.',
  'Add only accounts that are in your own name.',
  "Check the other user's ratings before you send money.",
] as const;

export function SecurityNote() {
  return (
    <Alert severity="info" icon={<ShieldIcon />} sx={{ mt: 3 }}>
      <AlertTitle>Security note</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {SecurityPoints.map((point) => <li key={point}>{point}</li>)}
      </Box>
    </Alert>
  );
}
