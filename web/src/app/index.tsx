import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProvider } from './provider.tsx';
import { createAppRouter } from './router.tsx';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider>
      {/* Navigations are not transitions: a click right after one (a filter set in the URL) must see the new location,
          and nothing here suspends, so there is no old screen worth keeping while a new one loads. */}
      <RouterProvider router={router} useTransitions={false} />
    </AppProvider>
  );
}
