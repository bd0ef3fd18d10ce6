/**
 * Light, dark or system theme (spec section 3: the preference is kept in localStorage under `ui-theme`). 'system'
 * follows the operating system's setting, live.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ThemeProvider, createTheme } from '@mui/material/styles';
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

/** The theme for a mode; in Spanish MUI's own texts (pagination, ratings) too. */
export function buildTheme(mode: 'light' | 'dark', language: Language = 'en') {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'light' ? '#0b5cad' : '#7fb5ff' },
      secondary: { main: mode === 'light' ? '#b3261e' : '#ffb4ab' },
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
