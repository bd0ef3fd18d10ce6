/**
 * Resending a request for an exchange (lib/idempotency.ts): the server must see one submission however often the
 * user presses Create Request after an error, and a new one for anything else.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ExchangeLimits, ExchangeRate } from '@puente/contracts';
import { CreateExchangeButton } from './create-exchange-button.tsx';
import { makeRequest } from '../testing.ts';
import { fakeApi, idempotencyKeyOf, makeUser, signedIn, type FakeApi } from '../../../testing/fake-api.ts';
import { findToastSaying, renderWithRoutes } from '../../../testing/render.tsx';
import { chooseLanguage } from '../../../lib/i18n.ts';

const rate = ExchangeRate.parse({ gbpToClp: 1275.5, lastUpdated: new Date().toISOString() });
const limits = ExchangeLimits.parse({
  tier: 'premium', maxPerExchange: { GBP: 5000, CLP: 6_000_000 }, perDay: 20, perMonth: 100, usedToday: 0, usedThisMonth: 0,
  resetsAt: { day: '2026-05-05T00:00:00.000Z', month: '2026-06-01T00:00:00.000Z' },
});
const CREATE = 'POST /api/exchange-requests';
const created = { status: 201, body: makeRequest({ id: 77, userId: 7 }) };
const unavailable = { status: 503, body: { message: 'Service temporarily unavailable, please try again', code: 'service_unavailable' } };

const dialog = () => screen.getByRole('dialog');

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Create Exchange' }));
  await within(await screen.findByRole('dialog')).findByTestId('exchange-rate');
}

/** Presses Create Request and waits for the server to have had one more submission. */
async function submit(server: FakeApi) {
  const before = server.callsTo(CREATE).length;
  fireEvent.click(within(dialog()).getByRole('button', { name: /^(Create Request|Crear solicitud)$/ }));
  await waitFor(() => expect(server.callsTo(CREATE)).toHaveLength(before + 1));
}


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Each submission the server had: its key (a random UUID on every one) and its body. */
function sent(server: FakeApi) {
  const calls = server.callsTo(CREATE).map((call) => ({ key: idempotencyKeyOf(call), body: call.body }));
  for (const { key } of calls) expect(key).toMatch(UUID);
  return calls;
}

function start(first: Parameters<FakeApi['on']>[0][string]) {
  const server = fakeApi({ ...signedIn(makeUser()), 'GET /api/exchange-rate': { body: rate }, 'GET /api/exchange-requests/limits': { body: limits }, [CREATE]: first });
  renderWithRoutes(<CreateExchangeButton hasBothAccounts />);
  return server;
}

describe('resending a request for an exchange', () => {
  afterEach(async () => { await chooseLanguage('en'); });

  it('sends the same key again after a network error, and a new one for the next request after a success', async () => {
    const server = start('network-error');
    await openDialog();
    await submit(server);
    await findToastSaying('Failed to create exchange request');
    server.on({ [CREATE]: created });
    await submit(server);
    await findToastSaying('Exchange Request Created');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await openDialog();
    await submit(server);
    const [failed, resent, next] = sent(server);
    expect(resent).toEqual(failed);
    expect(next?.body).toEqual(failed?.body); // the same request again, on purpose: a second one
    expect(next?.key).not.toBe(failed?.key);
  });

  it('keeps the key through a 5xx, and starts a new one when the amount is changed', async () => {
    const server = start(unavailable);
    await openDialog();
    await submit(server);
    await submit(server);
    fireEvent.change(within(dialog()).getByLabelText(/^Amount/, { selector: 'input' }), { target: { value: '100' } });
    server.on({ [CREATE]: created });
    await submit(server);
    const [first, again, edited] = sent(server);
    expect(again?.key).toBe(first?.key);
    expect(edited?.body).toEqual({ ...(first?.body as object), amount: 100 });
    expect(edited?.key).not.toBe(first?.key);
  });

  it('starts a new key after a refusal, which created nothing', async () => {
    const server = start({ status: 403, body: { message: 'You have reached your daily limit', code: 'plan_limit' } });
    await openDialog();
    await submit(server);
    await submit(server);
    const [refused, again] = sent(server);
    expect(again?.body).toEqual(refused?.body);
    expect(again?.key).not.toBe(refused?.key);
  });

  it('says so when the first submission is still being answered, and resends under its key, in English and Spanish', async () => {
    const server = start({ status: 409, body: { message: 'This request was already received and is being processed, or was done: refresh to see its result', code: 'idempotency_key_in_use' } });
    await openDialog();
    await submit(server);
    await findToastSaying('This was already sent, with other details or still being processed. Check whether it went through (reload the page) before sending it again.');
    await chooseLanguage('es');
    await submit(server);
    await findToastSaying('Esto ya se envió, con otros datos o aún se está procesando.');
    const [first, again] = sent(server);
    expect(again?.key).toBe(first?.key);
  });
});
