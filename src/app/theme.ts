// The Mantine theme: a calm clinical blue, comfortable touch targets for tablets at the bench.
import { createTheme, type MantineColorsTuple } from '@mantine/core';
import './touch.css';

/** The class that makes a control at least 44×44 CSS px on touch screens (touch.css). */
export const TOUCH_TARGET = 'touch-target';

const tessera: MantineColorsTuple = [
  '#e8f1fa',
  '#d0e0f0',
  '#a0bfe2',
  '#6c9cd4',
  '#437fc8',
  '#2a6cc1',
  '#1c62bf',
  '#0f52a9',
  '#1c4e80',
  '#003f86',
];

export const theme = createTheme({
  primaryColor: 'tessera',
  colors: { tessera },
  primaryShade: { light: 8, dark: 5 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    Tooltip: { defaultProps: { openDelay: 300, withArrow: true } },
    Button: { defaultProps: { radius: 'md' }, classNames: { root: TOUCH_TARGET } },
    // Icon buttons (card menus, hearts, zoom) are the smallest targets: 44×44 on touch screens.
    ActionIcon: { classNames: { root: TOUCH_TARGET } },
  },
});
