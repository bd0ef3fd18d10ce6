/**
 * What the directory shows, kept in the URL (?page=, ?name=, ?tier=) so that a page or a search can be shared and the
 * back button returns to it: the name search (applied a moment after typing stops, not on every key), the tier select
 * and the page control. A new name or tier starts again at page 1.
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { TrustLevel } from '@puente/contracts';
import type { DirectoryView } from '../api/get-users.ts';

/** How long the name search waits after the last key before it searches. */
export const NAME_SEARCH_DELAY_MS = 300;

function pageOf(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** The directory's view from the URL, and a change of it (a new name or tier goes back to page 1). */
export function useDirectoryView(): [DirectoryView, (change: Partial<DirectoryView>) => void] {
  const [params, setParams] = useSearchParams();
  const tier = params.get('tier') ?? '';
  const view: DirectoryView = {
    page: pageOf(params.get('page')),
    name: params.get('name') ?? '',
    tier: TrustLevel.safeParse(tier).success ? (tier as DirectoryView['tier']) : '',
  };
  const change = (next: Partial<DirectoryView>) => {
    const merged = { ...view, ...next };
    if (next.name !== undefined || next.tier !== undefined) merged.page = 1;
    const search = new URLSearchParams(params);
    const set = (key: string, value: string) => (value ? search.set(key, value) : search.delete(key));
    set('page', merged.page > 1 ? String(merged.page) : '');
    set('name', merged.name);
    set('tier', merged.tier);
    // Typing refines one search: it replaces the entry; a tier or a page is a step back can return from.
    setParams(search, next.name !== undefined ? { replace: true } : undefined);
  };
  return [view, change];
}

export function DirectoryFilters({ view, onChange }: { view: DirectoryView; onChange: (change: Partial<DirectoryView>) => void }) {
  const { t } = useTranslation('users', { keyPrefix: 'filters' });
  const { t: tc } = useTranslation('common');
  const [name, setName] = useState(view.name);
  const [applied, setApplied] = useState<string | null>(null);
  const [seen, setSeen] = useState(view.name);
  // The URL's name changed, not by this field (back, a link): the field shows it. One this field applied is left
  // alone, as the user may have typed on since.
  if (seen !== view.name) {
    setSeen(view.name);
    if (view.name !== applied) setName(view.name);
  }
  const apply = useEffectEvent((text: string) => { setApplied(text); onChange({ name: text }); });
  useEffect(() => {
    const text = name.trim();
    if (text === view.name) return undefined;
    const timer = setTimeout(() => apply(text), NAME_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [name, view.name]);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }} role="search" aria-label={t('label')}>
      <TextField type="search" size="small" label={t('name')} value={name} onChange={(e) => setName(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 100 } }} sx={{ minWidth: 240 }} />
      <TextField select size="small" label={t('tier')} value={view.tier} onChange={(e) => onChange({ tier: e.target.value as DirectoryView['tier'] })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} sx={{ minWidth: 200 }}>
        <MenuItem value="">{t('allTiers')}</MenuItem>
        {TrustLevel.options.toReversed().map((tier) => <MenuItem key={tier} value={tier}>{tc(`trustLevels.${tier}`)}</MenuItem>)}
      </TextField>
    </Stack>
  );
}

/** The page control: every page reachable by keyboard (Tab to a page, Enter to open it), named in the reader's language. */
export function DirectoryPages({ page, pages, onChange }: { page: number; pages: number; onChange: (page: number) => void }) {
  const { t } = useTranslation('users', { keyPrefix: 'pages' });
  if (pages <= 1) return null;
  return (
    <Pagination sx={{ mt: 3, display: 'flex', justifyContent: 'center' }} count={pages} page={Math.min(page, pages)}
      onChange={(_, next) => onChange(next)} aria-label={t('label')}
      getItemAriaLabel={(type, item, selected) => {
        if (type === 'page') return selected ? t('current', { page: item }) : t('page', { page: item });
        return t(type);
      }} />
  );
}
