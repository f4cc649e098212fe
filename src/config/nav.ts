import type { MessageKey } from '#src/i18n/t.ts';

/** The header's navigation, as data: the nav bar, the avatar menu and the drawer read it. */
export interface NavItem {
  /** its text in the catalogs (src/i18n) */
  label: MessageKey;
  href: string;
  adminOnly?: boolean;
}

export const mainNav: NavItem[] = [
  { label: 'nav.dashboard', href: '/dashboard' },
  { label: 'nav.newExchange', href: '/exchange/new' },
  { label: 'nav.adminPanel', href: '/admin', adminOnly: true },
];

/** The phone drawer holds everything the bar and the account menu offer. */
export const drawerNav: NavItem[] = [
  { label: 'nav.dashboard', href: '/dashboard' },
  { label: 'nav.myExchanges', href: '/exchange' },
  { label: 'nav.newExchange', href: '/exchange/new' },
  { label: 'nav.adminPanel', href: '/admin', adminOnly: true },
];

export const accountMenu: NavItem[] = [
  { label: 'nav.dashboard', href: '/dashboard' },
  { label: 'nav.myExchanges', href: '/exchange' },
  { label: 'nav.adminDashboard', href: '/admin', adminOnly: true },
];

export const visibleTo = (items: NavItem[], isAdmin: boolean) => items.filter((i) => !i.adminOnly || isAdmin);
