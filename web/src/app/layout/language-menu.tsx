import { useEffect, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@puente/contracts';
import { toast } from '../../components/ui/toast.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { chooseLanguage, currentLanguage, i18n, languages, locales, type Language } from '../../lib/i18n.ts';
import { useUpdateProfile } from '../../features/profile/api/update-profile.ts';

/**
 * A signed-in user's account keeps their language (their emails are written in it): when someone signs in, or opens
 * the app already signed in, the app takes it, once per user, so a choice made on the phone follows them to the
 * laptop. After that, the user's own switch leads (and is saved to the account).
 */
function useAccountLanguage(user: CurrentUser | null): void {
  const adoptedFor = useRef<number | null>(null);
  useEffect(() => {
    if (!user) {
      adoptedFor.current = null;
      return;
    }
    if (adoptedFor.current === user.id) return;
    adoptedFor.current = user.id;
    if (user.language !== currentLanguage()) void chooseLanguage(user.language);
  }, [user]);
}

/**
 * English or Español (kept under `ui-language`); each named in itself, so a reader finds their own. A signed-in
 * user's choice is also saved to their account (PATCH /api/auth/user).
 */
export function LanguageMenu() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { user } = useCurrentUser();
  const save = useUpdateProfile();
  useAccountLanguage(user);
  const current = currentLanguage();

  const choose = (language: Language) => {
    void chooseLanguage(language);
    setAnchor(null);
    if (user && user.language !== language) {
      // Said in the language just chosen (this render's `t` still speaks the previous one).
      save.mutate({ language }, { onError: () => toast({ title: i18n.t('error'), description: i18n.t('language.saveFailed'), variant: 'destructive' }) });
    }
  };

  return (
    <>
      <Button
        color="inherit"
        // The name starts with the visible code (WCAG 2.5.3: a voice user says what they see).
        aria-label={t('language.label', { code: current.toUpperCase(), language: t(`language.${current}`) })}
        aria-haspopup="menu"
        aria-controls={anchor ? 'language-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ px: 1, fontWeight: 700 }} // no narrower than the theme's 44 px target
      >
        {current.toUpperCase()}
      </Button>
      <Menu id="language-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {languages.map((language) => (
          <MenuItem key={language} lang={locales[language]} selected={language === current} onClick={() => choose(language)}>
            {t(`language.${language}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
