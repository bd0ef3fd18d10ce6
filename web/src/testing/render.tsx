/** Renders the whole app (providers and the real route table) at a path, or one component inside the providers. */
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { AppProvider } from '../app/provider.tsx';
import { routes } from '../app/router.tsx';
import { createQueryClient } from '../lib/query-client.ts';

export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, queryClient };
}

/** One component at `path` (with its own little route table), inside the app's providers. */
export function renderWithRoutes(element: ReactNode, options: { path?: string; pattern?: string; extraRoutes?: RouteObject[] } = {}) {
  const router = createMemoryRouter(
    [{ path: options.pattern ?? '/', element }, ...(options.extraRoutes ?? []), { path: '*', element: <p>elsewhere</p> }],
    { initialEntries: [options.path ?? '/'] },
  );
  const queryClient = createQueryClient();
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, queryClient };
}

/**
 * The toast viewport (spec section 9: one toast at a time). Found even while a dialog is open, which hides the rest
 * of the page from the accessibility tree (the toast still shows above it). In English or Spanish.
 */
export function findToast(): Promise<HTMLElement> {
  return waitFor(() => {
    const toasts = [...screen.getByRole('region', { name: /^(Notifications|Notificaciones) \(F8\)$/, hidden: true }).querySelectorAll('li')];
    expect(toasts).toHaveLength(1);
    return toasts[0]!;
  });
}

/** Waits for the toast to say `text`: a toast replaces the one before it, which findToast may still find. */
export function findToastSaying(text: string): Promise<HTMLElement> {
  return waitFor(async () => {
    const shown = await findToast();
    expect(shown.textContent).toContain(text);
    return shown;
  });
}
