import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Landing } from './Landing.tsx';

afterEach(cleanup);

describe('landing page', () => {
  it('shows the three-step explainer and says the product moves no money', () => {
    render(<Landing />);
    expect(screen.getByText('Create an exchange request.')).toBeTruthy();
    expect(screen.getByText('Match with others; both parties confirm.')).toBeTruthy();
    expect(screen.getByText('Complete the transfer through your own bank, then rate the experience.')).toBeTruthy();
    expect(screen.getByText(/does not process or handle any money transfers/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
  });
});
