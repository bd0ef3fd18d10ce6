/**
 * Light, dark or system theme (spec section 3: the preference is kept in localStorage under `ui-theme`). 'system'
 * follows the operating system's setting, live.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ThemeProvider, createTheme, type Components, type Theme } from '@mui/material/styles';
import { esES } from '@mui/material/locale';
import { useTranslation } from 'react-i18next';
import { currentLanguage, type Language } from '../../lib/i18n.ts';

export type ThemePreference = 'light' | 'dark' | 'system';
export const THEME_STORAGE_KEY = 'ui-theme';

function storedPreference(): ThemePreference {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
  } catch {
    return 'system';
  }
}

interface ThemeModeValue {
  preference: ThemePreference;
  mode: 'light' | 'dark';
  setPreference: (preference: ThemePreference) => void;
}

const ThemeModeContext = createContext<ThemeModeValue | null>(null);

export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode outside ThemeModeProvider');
  return value;
}

/** WCAG 2.5.5's target size: what a finger presses is at least this tall and wide, on every screen. */
export const TARGET_SIZE = 44;
const atLeastTarget = { minWidth: TARGET_SIZE, minHeight: TARGET_SIZE } as const;

/**
 * Every pressable MUI component at least 44×44 px, whatever its `size`: buttons (links drawn as buttons too), icon
 * buttons, toggle buttons, pagination items, clickable chips, a rating's stars, checkboxes, radios and switches (their
 * input covers the whole box) and the boxes of text fields and selects (a small one is 40 px tall; the table pager's
 * 29 px). Tabs are 48 px tall and 90 px wide already.
 */
const touchTargets: Components<Theme> = {
  MuiButton: { styleOverrides: { root: atLeastTarget } },
  MuiIconButton: { styleOverrides: { root: atLeastTarget } },
  MuiToggleButton: { styleOverrides: { root: atLeastTarget } },
  MuiPaginationItem: { styleOverrides: { root: { minWidth: TARGET_SIZE, height: TARGET_SIZE, borderRadius: TARGET_SIZE / 2 } } },
  MuiChip: { styleOverrides: { clickable: { minHeight: TARGET_SIZE }, deletable: { minHeight: TARGET_SIZE } } },
  MuiCheckbox: { styleOverrides: { root: atLeastTarget } },
  MuiRadio: { styleOverrides: { root: atLeastTarget } },
  // The switch's base (thumb and input) 44 px square, its track kept 34×14 and centred: 3 px more on each side.
  MuiSwitch: { styleOverrides: { root: { width: 64, height: TARGET_SIZE, padding: 15 }, switchBase: { padding: 12 } } },
  MuiInputBase: { styleOverrides: { root: { minHeight: TARGET_SIZE } } },
  // A small outlined field's label, inside the box until it shrinks, stays centred in the taller box (40 → 44 px).
  MuiInputLabel: {
    styleOverrides: {
      root: { variants: [{ props: ({ ownerState }) => ownerState.size === 'small' && ownerState.variant === 'outlined' && !ownerState.shrink, style: { transform: 'translate(14px, 11px) scale(1)' } }] },
    },
  },
  // A star to pick is 24 px: 10 px around each (the empty-value label, with no star, stays out of the way).
  MuiRating: { styleOverrides: { root: { '& label:has(svg)': { display: 'inline-flex', padding: 10 } } } },
  MuiTablePagination: { styleOverrides: { select: { minHeight: TARGET_SIZE, display: 'flex', alignItems: 'center', boxSizing: 'border-box' } } },
};

/** The theme for a mode; in Spanish MUI's own texts (pagination, ratings) too. */
export function buildTheme(mode: 'light' | 'dark', language: Language = 'en') {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'light' ? '#0b5cad' : '#7fb5ff' },
      secondary: { main: mode === 'light' ? '#b3261e' : '#ffb4ab' },
      // MUI's light warning, info and error (#ed6c02, #0288d1, #d32f2f) hold white text at 3.1, 3.9 and 4.98 (4.4 on a
      // tinted card), its dark error (#f44336) 3.7: these at 4.5 or more, the dark one with dark text (WCAG 1.4.3).
      ...(mode === 'light' ? { warning: { main: '#a84f00' }, info: { main: '#006a9e' }, error: { main: '#c62828' } } : { error: { main: '#ff8a80' } }),
      background: mode === 'light' ? { default: '#f6f7fb', paper: '#ffffff' } : { default: '#0f1318', paper: '#171c22' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontSize: '2.4rem', fontWeight: 700 },
      h2: { fontSize: '1.9rem', fontWeight: 700 },
      h3: { fontSize: '1.5rem', fontWeight: 700 },
      h4: { fontSize: '1.3rem', fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      ...touchTargets,
      MuiCard: { defaultProps: { variant: 'outlined' } },
      // Spec section 9: tooltips open after 700 ms, 300 ms when moving from one to the next.
      MuiTooltip: { defaultProps: { enterDelay: 700, enterNextDelay: 300 } },
    },
  }, ...(language === 'es' ? [esES] : []));
}

export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [preference, setPreferenceState] = useState<ThemePreference>(storedPreference);
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const mode = preference === 'system' ? (prefersDark ? 'dark' : 'light') : preference;
  useTranslation(); // a new theme when the language changes
  const language = currentLanguage();
  const theme = useMemo(() => buildTheme(mode, language), [mode, language]);
  const value = useMemo<ThemeModeValue>(() => ({
    preference,
    mode,
    setPreference: (next) => {
      setPreferenceState(next);
      try {
        localStorage.setItem(THEME_STORAGE_KEY, next);
      } catch {
        // Storage refused: the choice lasts for this visit.
      }
    },
  }), [preference, mode]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
}
