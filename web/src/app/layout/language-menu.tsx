import { useState } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage, languages, locales } from '../../lib/i18n.ts';

/** English or Español (kept under `ui-language`); each named in itself, so a reader finds their own. */
export function LanguageMenu() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = currentLanguage();
  return (
    <>
      <Button
        color="inherit"
        aria-label={t('language.label', { language: t(`language.${current}`) })}
        aria-haspopup="menu"
        aria-controls={anchor ? 'language-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ minWidth: 0, px: 1, fontWeight: 700 }}
      >
        {current.toUpperCase()}
      </Button>
      <Menu id="language-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {languages.map((language) => (
          <MenuItem
            key={language}
            lang={locales[language]}
            selected={language === current}
            onClick={() => {
              void chooseLanguage(language);
              setAnchor(null);
            }}
          >
            {t(`language.${language}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
