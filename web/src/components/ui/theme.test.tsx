import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import TablePagination from '@mui/material/TablePagination';
import { ThemeModeProvider } from './theme.tsx';
import { TrustChip } from './trust.tsx';
import { chooseLanguage } from '../../lib/i18n.ts';

describe("MUI's own texts and the shared chips follow the language", () => {
  it('reads English, then Spanish once the user switches', async () => {
    render(
      <ThemeModeProvider>
        <table><tbody><tr><TablePagination count={120} page={0} rowsPerPage={50} onPageChange={() => {}} /></tr></tbody></table>
        <TrustChip level="Gold" />
      </ThemeModeProvider>,
    );
    expect(screen.getByText('Rows per page:')).toBeTruthy();
    expect(screen.getByText('1–50 of 120')).toBeTruthy();
    expect(screen.getByText('Gold')).toBeTruthy();
    await act(() => chooseLanguage('es'));
    expect(screen.getByText('Filas por página:')).toBeTruthy();
    expect(screen.getByText('1–50 de 120')).toBeTruthy();
    expect(screen.getByText('Oro')).toBeTruthy();
  });
});
