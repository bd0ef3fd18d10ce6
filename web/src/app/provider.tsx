/** Everything every page needs: the query client, the theme (ui-theme), and the toast viewport. */
import '../lib/i18n.ts';
import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ThemeModeProvider } from '../components/ui/theme.tsx';
import { Toaster } from '../components/ui/toast.tsx';
import { createQueryClient } from '../lib/query-client.ts';

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeModeProvider>
        {children}
        <Toaster />
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}
