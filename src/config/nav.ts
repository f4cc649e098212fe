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
  { label: 'nav.receive', href: '/admin/receive', adminOnly: true },
];

/** The phone drawer holds everything the bar and the account menu offer. */
export const drawerNav: NavItem[] = [
  { label: 'nav.dashboard', href: '/dashboard' },
  { label: 'nav.myExchanges', href: '/exchange' },
  { label: 'nav.newExchange', href: '/exchange/new' },
  { label: 'nav.adminPanel', href: '/admin', adminOnly: true },
  { label: 'nav.receive', href: '/admin/receive', adminOnly: true },
];

export const accountMenu: NavItem[] = [
  { label: 'nav.dashboard', href: '/dashboard' },
  { label: 'nav.myExchanges', href: '/exchange' },
  { label: 'nav.adminDashboard', href: '/admin', adminOnly: true },
];

/** The admin's pages beside the dashboard's tabs (its "Insights and integrations" links): admin pages stay English. */
export const adminNav: { label: string; href: string; adminOnly: true }[] = [
  { label: 'Analytics', href: '/admin/analytics', adminOnly: true },
  { label: 'Webhooks', href: '/admin/webhooks', adminOnly: true },
  { label: 'Valuation', href: '/admin/valuation', adminOnly: true },
  { label: 'Risk', href: '/admin/risk', adminOnly: true },
];

export const visibleTo = (items: NavItem[], isAdmin: boolean) => items.filter((i) => !i.adminOnly || isAdmin);
