/** The header's navigation, as data: the nav bar, the avatar menu and the drawer read it. */
export interface NavItem {
  label: string;
  href: string;
  adminOnly?: boolean;
}

export const mainNav: NavItem[] = [
  { label: 'Dashboard', href: '/dashboard' },
  { label: 'New Exchange', href: '/exchange/new' },
  { label: 'Admin Panel', href: '/admin', adminOnly: true },
  { label: 'Receive', href: '/admin/receive', adminOnly: true },
];

/** The phone drawer holds everything the bar and the account menu offer. */
export const drawerNav: NavItem[] = [
  { label: 'Dashboard', href: '/dashboard' },
  { label: 'My Exchanges', href: '/exchange' },
  { label: 'New Exchange', href: '/exchange/new' },
  { label: 'Admin Panel', href: '/admin', adminOnly: true },
  { label: 'Receive', href: '/admin/receive', adminOnly: true },
];

export const accountMenu: NavItem[] = [
  { label: 'Dashboard', href: '/dashboard' },
  { label: 'My Exchanges', href: '/exchange' },
  { label: 'Admin Dashboard', href: '/admin', adminOnly: true },
];

/** The admin's pages beside the dashboard's tabs (its "Insights and integrations" links). */
export const adminNav: NavItem[] = [
  { label: 'Analytics', href: '/admin/analytics', adminOnly: true },
  { label: 'Webhooks', href: '/admin/webhooks', adminOnly: true },
  { label: 'Valuation', href: '/admin/valuation', adminOnly: true },
  { label: 'Risk', href: '/admin/risk', adminOnly: true },
];

export const visibleTo = (items: NavItem[], isAdmin: boolean) => items.filter((i) => !i.adminOnly || isAdmin);
