import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { DarkModeIcon, LightModeIcon, SystemModeIcon } from '../../components/ui/icons.tsx';
import { useThemeMode, type ThemePreference } from '../../components/ui/theme.tsx';

const options: { value: ThemePreference; label: string; Icon: typeof LightModeIcon }[] = [
  { value: 'light', label: 'Light', Icon: LightModeIcon },
  { value: 'dark', label: 'Dark', Icon: DarkModeIcon },
  { value: 'system', label: 'System', Icon: SystemModeIcon },
];

/** Light, dark or system (kept under `ui-theme`). */
export function ThemeMenu() {
  const { preference, mode, setPreference } = useThemeMode();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const CurrentIcon = mode === 'dark' ? DarkModeIcon : LightModeIcon;
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={`Theme: ${preference}`}
        aria-haspopup="menu"
        aria-controls={anchor ? 'theme-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <CurrentIcon />
      </IconButton>
      <Menu id="theme-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {options.map(({ value, label, Icon }) => (
          <MenuItem
            key={value}
            selected={preference === value}
            onClick={() => {
              setPreference(value);
              setAnchor(null);
            }}
          >
            <ListItemIcon><Icon fontSize="small" /></ListItemIcon>
            <ListItemText>{label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
