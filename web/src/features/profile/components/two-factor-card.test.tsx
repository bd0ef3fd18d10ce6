import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import QRCode from 'qrcode';
import { TwoFactorStatus, type SignInMethods } from '@puente/contracts';
import { TwoFactorCard } from './two-factor-card.tsx';
import { fakeApi, signedIn } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/Puente%3Aana%40example.com?secret=${SECRET}&issuer=Puente&algorithm=SHA1&digits=6&period=30`;
const NEW_CODES = ['zyxw-vuts', 'rqpn-mkjh', 'gfed-cba9', '8765-432z', 'yxwv-utsr', 'qpnm-kjhg', 'fedc-ba98', '7654-32zy', 'xwvu-tsrq', 'pnmk-jhgf'];
const CODES = ['abcd-efgh', 'jkmn-pqrs', 'tuvw-xyz2', '3456-789a', 'bcde-fghj', 'kmnp-qrst', 'uvwx-yz23', '4567-89ab', 'cdef-ghjk', 'mnpq-rstu'];

const withPassword: SignInMethods = {
  password: true, google: { linked: false, linkedAt: null }, twoFactor: false, reauthentication: 'password', googleSignInValidUntil: null,
};
const googleOnly: SignInMethods = {
  password: false, google: { linked: true, linkedAt: null }, twoFactor: false, reauthentication: 'google', googleSignInValidUntil: null,
};

/** identity's two-factor routes: the status follows what enable and disable did. */
function twoFactorApi(initial: { enabled: boolean; recoveryCodesLeft: number }, methods: SignInMethods = withPassword) {
  let status = TwoFactorStatus.parse(initial);
  return fakeApi({
    ...signedIn(),
    'GET /api/auth/sign-in-methods': { body: methods },
    'GET /api/auth/two-factor': () => ({ body: status }),
    'POST /api/auth/two-factor/setup': { body: { secret: SECRET, otpauthUri: URI } },
    'POST /api/auth/two-factor/enable': ({ body }) => {
      if ((body as { code: string }).code !== '123456') {
        return { status: 400, body: { message: 'That code is not right. Check your authenticator app and try again.', code: 'invalid_totp_code', errors: [{ field: 'code', message: 'That code is not right. Check your authenticator app and try again.' }] } };
      }
      status = { enabled: true, recoveryCodesLeft: 10 };
      return { body: { recoveryCodes: CODES } };
    },
    'POST /api/auth/two-factor/recovery-codes': ({ body }) => {
      if ((body as { code: string }).code !== '654321') {
        return { status: 400, body: { message: 'That code is not right. Check your authenticator app and try again.', code: 'invalid_totp_code', errors: [{ field: 'code', message: 'That code is not right. Check your authenticator app and try again.' }] } };
      }
      status = { enabled: true, recoveryCodesLeft: 10 };
      return { body: { recoveryCodes: NEW_CODES } };
    },
    'POST /api/auth/two-factor/disable': () => {
      status = { enabled: false, recoveryCodesLeft: 0 };
      return { body: { message: 'Two-factor sign-in is off' } };
    },
  });
}

const card = () => screen.findByRole('region', { name: 'Two-factor sign-in' });
const field = (form: HTMLElement, label: string) => within(form).getByLabelText(label, { selector: 'input' });

describe('two-factor sign-in on the profile', () => {
  it('turns on: the authenticator link and key, the current password and a first code, then the recovery codes once', async () => {
    const server = twoFactorApi({ enabled: false, recoveryCodesLeft: 0 });
    renderWithRoutes(<TwoFactorCard />);
    expect(await within(await card()).findByText('Off')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));

    const link = await screen.findByRole('link', { name: URI });
    expect(link.getAttribute('href')).toBe(URI);
    // The QR code the app's camera reads is the same link's.
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;utf8,${encodeURIComponent(await QRCode.toString(URI, { type: 'svg', margin: 1 }))}`);
    expect(screen.getByLabelText('Setup key').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    const form = screen.getByRole('form', { name: 'Turn on' });
    fireEvent.change(await within(form).findByLabelText('Current password', { selector: 'input' }), { target: { value: 'my password' } });
    fireEvent.change(field(form, 'Code from the app'), { target: { value: '999999' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn on' }));
    expect(within(await findToast()).getByText('That code is not right. Check your authenticator app and try again.')).toBeTruthy();

    fireEvent.change(field(form, 'Code from the app'), { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn on' }));
    const codes = await screen.findByRole('list', { name: 'Save your recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    expect(server.callsTo('POST /api/auth/two-factor/enable').at(-1)?.body).toEqual({ currentPassword: 'my password', code: '123456' });

    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Save your recovery codes' })).toBeNull());
    expect(within(await card()).getByText('On')).toBeTruthy();
    expect(screen.getByText('10 recovery codes left')).toBeTruthy();
    expect(screen.queryByText(SECRET)).toBeNull();
  });

  it('copies the recovery codes', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    twoFactorApi({ enabled: false, recoveryCodesLeft: 0 });
    renderWithRoutes(<TwoFactorCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    const form = await screen.findByRole('form', { name: 'Turn on' });
    fireEvent.change(field(form, 'Current password'), { target: { value: 'my password' } });
    fireEvent.change(field(form, 'Code from the app'), { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn on' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Copy codes' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(CODES.join('\n')));
  });

  it('turns off with the current password and a recovery code', async () => {
    const server = twoFactorApi({ enabled: true, recoveryCodesLeft: 1 });
    renderWithRoutes(<TwoFactorCard />);
    expect(await screen.findByText('1 recovery code left')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    const form = await screen.findByRole('form', { name: 'Turn off' });
    fireEvent.change(field(form, 'Current password'), { target: { value: 'my password' } });
    fireEvent.change(field(form, 'Code from the app'), { target: { value: 'ABCD-EFGH' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(within(await findToast()).getByText('Two-factor sign-in is off')).toBeTruthy();
    expect(server.callsTo('POST /api/auth/two-factor/disable')[0]?.body).toEqual({ currentPassword: 'my password', code: 'ABCD-EFGH' });
    expect(await screen.findByRole('button', { name: 'Turn on' })).toBeTruthy();
  });

  it('replaces the recovery codes for the current password and a code from the app, and shows the new ones once', async () => {
    const server = twoFactorApi({ enabled: true, recoveryCodesLeft: 2 });
    renderWithRoutes(<TwoFactorCard />);
    expect(await screen.findByText('2 recovery codes left')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New recovery codes' }));
    const form = await screen.findByRole('form', { name: 'New recovery codes' });
    expect(await within(form).findByText('Enter your current password and a code from your authenticator app. Your current recovery codes will stop working.')).toBeTruthy();
    fireEvent.change(field(form, 'Current password'), { target: { value: 'my password' } });
    fireEvent.change(field(form, 'Code from the app'), { target: { value: '111111' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Get new codes' }));
    expect(within(await findToast()).getByText('That code is not right. Check your authenticator app and try again.')).toBeTruthy();

    fireEvent.change(field(form, 'Code from the app'), { target: { value: '654321' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Get new codes' }));
    const codes = await screen.findByRole('list', { name: 'Save your recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(NEW_CODES);
    expect(server.callsTo('POST /api/auth/two-factor/recovery-codes').at(-1)?.body).toEqual({ currentPassword: 'my password', code: '654321' });
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('10 recovery codes left')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Save your recovery codes' })).toBeNull();
  });

  it('without a password, sends the user to sign in with Google again before the setup, and starts it when they come back', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const server = twoFactorApi({ enabled: false, recoveryCodesLeft: 0 }, googleOnly);
    const first = renderWithRoutes(<TwoFactorCard />);
    expect(await screen.findByText('To turn it on, first sign in with Google again: your account has no password to confirm it with.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/google?reauthenticate=two-factor-on');
    expect(server.callsTo('POST /api/auth/two-factor/setup')).toEqual([]);
    first.unmount();

    server.on({ 'GET /api/auth/sign-in-methods': { body: { ...googleOnly, googleSignInValidUntil: new Date(Date.now() + 4 * 60_000).toISOString() } } });
    const { router } = renderWithRoutes(<TwoFactorCard />, { path: '/?reauthenticated=two-factor-on' });
    const form = await screen.findByRole('form', { name: 'Turn on' });
    expect(server.callsTo('POST /api/auth/two-factor/setup')).toHaveLength(1);
    expect(within(form).getByText('You signed in with Google again: confirm within 5 minutes.')).toBeTruthy();
    expect(within(form).queryByLabelText('Current password', { selector: 'input' })).toBeNull();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    fireEvent.change(field(form, 'Code from the app'), { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn on' }));
    await screen.findByRole('list', { name: 'Save your recovery codes' });
    expect(server.callsTo('POST /api/auth/two-factor/enable').at(-1)?.body).toEqual({ code: '123456' });
  });

  it('without a password, turns off with a code alone: the code is the proof', async () => {
    const server = twoFactorApi({ enabled: true, recoveryCodesLeft: 10 }, { ...googleOnly, twoFactor: true, reauthentication: 'totp' });
    renderWithRoutes(<TwoFactorCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    const form = await screen.findByRole('form', { name: 'Turn off' });
    expect(await within(form).findByText('Enter a code from your app (or a recovery code).')).toBeTruthy();
    expect(within(form).queryByLabelText('Current password', { selector: 'input' })).toBeNull();
    fireEvent.change(field(form, 'Code from the app'), { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(within(await findToast()).getByText('Two-factor sign-in is off')).toBeTruthy();
    expect(server.callsTo('POST /api/auth/two-factor/disable')[0]?.body).toEqual({ code: '123456' });
  });
});
