import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OwnVerificationRequest } from '@puente/contracts';
import { chooseLanguage } from '../../../lib/i18n.ts';
import { VerificationDialog } from './verification-dialog.tsx';
import { fakeApi, makeUser, signedIn, type Handler } from '../../../testing/fake-api.ts';
import { findToast, renderWithRoutes } from '../../../testing/render.tsx';

const user = makeUser({ emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false });
const file = (name: string, bytes: number, type = 'image/jpeg') => new File([new Uint8Array(bytes)], name, { type });
const idRequest = (status: OwnVerificationRequest['status'], document: OwnVerificationRequest['document'] = null): OwnVerificationRequest =>
  ({ id: 5, type: 'id', status, createdAt: '2026-03-01T10:00:00.000Z', document });
const passport = { fileName: 'passport.jpg', contentType: 'image/jpeg', size: 2048, uploadedAt: '2026-03-01T10:05:00.000Z', deletedAt: null } as const;

function dialogApi(open: OwnVerificationRequest[], more: Record<string, Handler> = {}) {
  return fakeApi({ ...signedIn(user), 'GET /api/users/me/verification-requests': { body: open }, ...more });
}

function openDialog() {
  renderWithRoutes(<VerificationDialog user={user} open onClose={() => {}} />);
  return screen.findByRole('dialog');
}

const itemOf = (dialog: HTMLElement, kind: string) => within(dialog).getByText(kind, { selector: '.MuiListItemText-primary' }).closest('li')!;

describe('verification dialog', () => {
  it('says what phone, ID and bank verification check', async () => {
    dialogApi([]);
    const dialog = await openDialog();
    expect(itemOf(dialog, 'Phone').textContent).toContain('An admin emails you, then calls or texts the number you give to check that it is yours and reaches you.');
    expect(itemOf(dialog, 'Bank account').textContent).toContain('An admin checks that the holder of your bank accounts on Puente has your name.');
    expect(itemOf(dialog, 'ID').textContent).toContain('Upload a photo or scan of your passport or ID card: an admin checks that it is valid and in your name.');
  });

  it('asks for the document once ID verification is requested, and uploads it as a form', async () => {
    const server = dialogApi([], {
      'POST /api/users/verification/id': { status: 201, body: { message: 'Upload a photo or scan of your passport or ID card: an admin reviews your request once it is in.', id: 5, type: 'id', status: 'awaiting_document' } },
      'POST /api/users/verification/id/document': { body: { message: 'Your document is in. An admin will review your ID verification request.', id: 5, type: 'id', status: 'pending' } },
    });
    const dialog = await openDialog();
    server.on({ 'GET /api/users/me/verification-requests': { body: [idRequest('awaiting_document')] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request ID verification' }));
    expect(await within(dialog).findByText('Awaiting document')).toBeTruthy();
    const input = within(dialog).getByLabelText('Your passport or ID card') as HTMLInputElement;
    expect(input.accept).toBe('.png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf');

    server.on({ 'GET /api/users/me/verification-requests': { body: [idRequest('pending', passport)] } });
    fireEvent.change(input, { target: { files: [file('passport.jpg', 2048)] } });
    // The request's toast gives way to the upload's (one toast at a time).
    await waitFor(async () => expect((await findToast()).textContent).toContain('Document uploaded'));
    expect(await within(dialog).findByText('Under review')).toBeTruthy();
    expect(await within(dialog).findByText('Document received (passport.jpg): an admin will review it.')).toBeTruthy();
    const [upload] = server.callsTo('POST /api/users/verification/id/document');
    expect(upload!.init.method).toBe('POST');
    expect(((upload!.init.body as FormData).get('file') as File).name).toBe('passport.jpg');
  });

  it('refuses a file of another type or over 10 MB before sending it, and shows the server\'s refusal in the same words', async () => {
    const server = dialogApi([idRequest('awaiting_document')], {
      'POST /api/users/verification/id/document': { status: 415, body: { message: 'Only PNG, JPEG or PDF files can be uploaded', code: 'id_document_type_not_allowed' } },
    });
    const dialog = await openDialog();
    const input = await within(dialog).findByLabelText('Your passport or ID card');
    fireEvent.change(input, { target: { files: [file('notes.txt', 10, 'text/plain')] } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Only PNG, JPEG or PDF files can be uploaded');
    fireEvent.change(input, { target: { files: [file('huge.png', 10 * 1024 * 1024 + 1, 'image/png')] } });
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('The file must be at most 10 MB'));
    expect(server.callsTo('POST /api/users/verification/id/document')).toHaveLength(0);

    fireEvent.change(input, { target: { files: [file('fake.png', 10, 'image/png')] } });
    await waitFor(() => expect(server.callsTo('POST /api/users/verification/id/document')).toHaveLength(1));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Only PNG, JPEG or PDF files can be uploaded');
    expect(within(dialog).getByText('Awaiting document')).toBeTruthy();
  });

  it('shows a request under review, and speaks Spanish', async () => {
    await act(() => chooseLanguage('es'));
    dialogApi([idRequest('pending', passport), { id: 6, type: 'phone', status: 'pending', createdAt: '2026-03-01T10:00:00.000Z', document: null }]);
    const dialog = await openDialog();
    await waitFor(() => expect(within(dialog).getAllByText('En revisión')).toHaveLength(2));
    expect(itemOf(dialog, 'Cuenta bancaria').textContent).toContain('Un administrador comprueba que el titular de tus cuentas bancarias en Puente tenga tu nombre.');
    expect(itemOf(dialog, 'Teléfono').textContent).toContain('llama o manda un SMS al número que le des');
    expect(within(dialog).getByText('Documento recibido (passport.jpg): un administrador lo revisará.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Solicitar verificación de Cuenta bancaria' })).toBeTruthy();
  });

  it('shows the upload\'s size error in Spanish', async () => {
    await act(() => chooseLanguage('es'));
    dialogApi([idRequest('awaiting_document')]);
    const dialog = await openDialog();
    expect(await within(dialog).findByText('Falta el documento')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Tu pasaporte o cédula de identidad'), { target: { files: [file('grande.pdf', 10 * 1024 * 1024 + 1, 'application/pdf')] } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('El archivo debe pesar como máximo 10 MB');
  });
});
