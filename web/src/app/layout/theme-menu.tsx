import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { DarkModeIcon, LightModeIcon, SystemModeIcon } from '../../components/ui/icons.tsx';
import { useThemeMode, type ThemePreference } from '../../components/ui/theme.tsx';

const options: { value: ThemePreference; Icon: typeof LightModeIcon }[] = [
  { value: 'light', Icon: LightModeIcon },
  { value: 'dark', Icon: DarkModeIcon },
  { value: 'system', Icon: SystemModeIcon },
];

/** Light, dark or system (kept under `ui-theme`). */
export function ThemeMenu() {
  const { t } = useTranslation();
  const { preference, mode, setPreference } = useThemeMode();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const CurrentIcon = mode === 'dark' ? DarkModeIcon : LightModeIcon;
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('theme.label', { preference })}
        aria-haspopup="menu"
        aria-controls={anchor ? 'theme-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <CurrentIcon />
      </IconButton>
      <Menu id="theme-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {options.map(({ value, Icon }) => (
          <MenuItem
            key={value}
            selected={preference === value}
            onClick={() => {
              setPreference(value);
              setAnchor(null);
            }}
          >
            <ListItemIcon><Icon fontSize="small" /></ListItemIcon>
            <ListItemText>{t(`theme.${value}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
