'use client';

import { LogOut, Menu } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useRouter } from 'waku';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '#src/components/ui/sheet.tsx';
import { drawerNav, visibleTo } from '#src/config/nav.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { logout } from './logout.ts';
import { NavLink } from './nav-link.tsx';

/** Below 600px: a hamburger opens a 250px drawer with the email, the Admin badge, the nav and Logout. */
export function MobileNav({ user }: { user: { email: string; isAdmin: boolean } }) {
  const { t } = useTexts();
  const [open, setOpen] = useState(false);
  const { path } = useRouter();
  useEffect(() => setOpen(false), [path]);

  return (
    <div className="min-[600px]:hidden">
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={t('nav.openMenu')}>
            <Menu aria-hidden="true" />
          </Button>
        </SheetTrigger>
        <SheetContent side="left" className="w-[250px] p-0">
          <div className="border-b border-border p-4">
            <SheetTitle className="text-base">SwapPoints</SheetTitle>
            <SheetDescription className="mt-1 truncate text-sm">{user.email}</SheetDescription>
            {user.isAdmin ? <Badge className="mt-2">Admin</Badge> : null}
          </div>
          <nav aria-label={t('nav.main')}>
            <ul className="flex flex-col p-2">
              {visibleTo(drawerNav, user.isAdmin).map((item) => (
                <li key={item.href}>
                  <NavLink
                    to={item.href}
                    className="block rounded-md px-3 py-2 text-sm font-medium hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-[current=page]:bg-accent aria-[current=page]:text-accent-foreground"
                  >
                    {t(item.label)}
                  </NavLink>
                </li>
              ))}
              <li>
                <button
                  type="button"
                  onClick={() => void logout()}
                  className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm font-medium hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  <LogOut className="size-4" aria-hidden="true" />
                  {t('nav.logout')}
                </button>
              </li>
            </ul>
          </nav>
        </SheetContent>
      </Sheet>
    </div>
  );
}
