'use client';

import { LogOut } from 'lucide-react';
import { Link } from 'waku';
import { Avatar } from '#src/components/ui/avatar.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx';
import { accountMenu, visibleTo } from '#src/config/nav.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { logout } from './logout.ts';

export function UserMenu({ user }: { user: { email: string; isAdmin: boolean } }) {
  const { t } = useTexts();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="rounded-full focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none"
        aria-label={t('nav.accountMenu', { email: user.email })}
      >
        <Avatar name={user.email} label="" />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-52">
        <DropdownMenuLabel className="truncate font-normal text-muted-foreground">{user.email}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {visibleTo(accountMenu, user.isAdmin).map((item) => (
          <DropdownMenuItem key={item.href} asChild>
            <Link to={item.href}>{t(item.label)}</Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void logout()}>
          <LogOut aria-hidden="true" />
          {t('nav.logout')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
