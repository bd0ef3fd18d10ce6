import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Market } from './market.tsx';
import { fakeApi, makeUser, signedIn } from '../../../testing/fake-api.ts';
import { renderWithRoutes } from '../../../testing/render.tsx';

describe('the market filters', () => {
  it('open the decimal pad for the amount range: inputmode on the <input> itself', async () => {
    fakeApi({ ...signedIn(makeUser()), 'GET /api/exchange-requests': { body: [] } });
    const { container } = renderWithRoutes(<Market userId={7} onOpen={() => {}} />);
    for (const label of ['Min amount', 'Max amount']) {
      const input = await screen.findByLabelText(label, { selector: 'input' });
      expect([label, input.getAttribute('inputmode')]).toEqual([label, 'decimal']);
    }
    expect(container.querySelector('div[inputmode]')).toBeNull();
  });
});
