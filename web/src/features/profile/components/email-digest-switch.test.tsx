import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { NotificationPreferences } from '@puente/contracts';
import { EmailDigestSwitch } from './email-digest-switch.tsx';
import { fakeApi, signedIn, type Call } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

const LABEL = 'Email me about unread notifications';

/** The preference as the notification service keeps it: GET reads it, PUT sets it and answers it. */
function preferencesApi(initial: boolean) {
  let stored = initial;
  return fakeApi({
    ...signedIn(),
    'GET /api/notifications/preferences': () => ({ body: { emailDigest: stored } }),
    'PUT /api/notifications/preferences': (call: Call) => {
      stored = NotificationPreferences.parse(call.body).emailDigest;
      return { body: { emailDigest: stored } };
    },
  });
}

const digestSwitch = () => screen.getByRole('switch', { name: LABEL }) as HTMLInputElement;

describe('the email digest switch', () => {
  it('shows the stored preference and turns it off and on again', async () => {
    const server = preferencesApi(true);
    renderWithRoutes(<EmailDigestSwitch />);
    await waitFor(() => expect(digestSwitch().checked).toBe(true));

    fireEvent.click(digestSwitch());
    await waitFor(() => expect(server.callsTo('PUT /api/notifications/preferences')).toHaveLength(1));
    expect(server.callsTo('PUT /api/notifications/preferences')[0]?.body).toEqual({ emailDigest: false });
    await waitFor(() => expect(digestSwitch().checked).toBe(false));
    expect(digestSwitch().disabled).toBe(false);

    fireEvent.click(digestSwitch());
    await waitFor(() => expect(server.callsTo('PUT /api/notifications/preferences')[1]?.body).toEqual({ emailDigest: true }));
    await waitFor(() => expect(digestSwitch().checked).toBe(true));
    // Saved answers replace the reading: no second GET.
    expect(server.callsTo('GET /api/notifications/preferences')).toHaveLength(1);
  });

  it('shows a turned-off preference as off', async () => {
    preferencesApi(false);
    renderWithRoutes(<EmailDigestSwitch />);
    await waitFor(() => expect(digestSwitch().disabled).toBe(false));
    expect(digestSwitch().checked).toBe(false);
  });

  it('goes back to the stored value and says so when saving fails', async () => {
    const server = preferencesApi(true);
    server.on({ 'PUT /api/notifications/preferences': { status: 500, body: { message: 'Internal error' } } });
    renderWithRoutes(<EmailDigestSwitch />);
    await waitFor(() => expect(digestSwitch().checked).toBe(true));
    fireEvent.click(digestSwitch());
    expect(await screen.findByText('Failed to save your email setting: Internal error')).toBeTruthy();
    expect(digestSwitch().checked).toBe(true);
  });

  it('stays disabled, with a word, when the preference cannot be read', async () => {
    fakeApi({ ...signedIn(), 'GET /api/notifications/preferences': { status: 503, body: { message: 'Unavailable' } } });
    renderWithRoutes(<EmailDigestSwitch />);
    expect(await screen.findByText('Your email setting is not available right now. Please try again later.')).toBeTruthy();
    expect(digestSwitch().disabled).toBe(true);
  });
});
