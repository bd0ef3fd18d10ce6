import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import TablePagination from '@mui/material/TablePagination';
import ToggleButton from '@mui/material/ToggleButton';
import { TARGET_SIZE, ThemeModeProvider } from './theme.tsx';
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

describe('what a finger presses is at least 44×44 px (WCAG 2.5.5), whatever its size', () => {
  it('gives small buttons, icon buttons, toggle buttons, checkboxes and pagination items the target size', () => {
    render(
      <ThemeModeProvider>
        <Button size="small">Copy</Button>
        <IconButton size="small" aria-label="Close"><span /></IconButton>
        <ToggleButton size="small" value="all">All</ToggleButton>
        <Checkbox size="small" slotProps={{ input: { 'aria-label': 'Agree' } }} />
        <Pagination count={3} />
      </ThemeModeProvider>,
    );
    const target = `${TARGET_SIZE}px`;
    const atLeast = (element: HTMLElement) => {
      const style = getComputedStyle(element);
      return [style.minWidth, style.minHeight];
    };
    expect(atLeast(screen.getByRole('button', { name: 'Copy' }))).toEqual([target, target]);
    expect(atLeast(screen.getByRole('button', { name: 'Close' }))).toEqual([target, target]);
    expect(atLeast(screen.getByRole('button', { name: 'All' }))).toEqual([target, target]);
    // The checkbox's input covers its box.
    expect(atLeast(screen.getByRole('checkbox', { name: 'Agree' }).parentElement!)).toEqual([target, target]);
    const page = getComputedStyle(screen.getByRole('button', { name: 'page 1' }));
    expect([page.minWidth, page.height]).toEqual([target, target]);
  });
});
