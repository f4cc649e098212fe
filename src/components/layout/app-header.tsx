import { Link } from 'waku';
import { Button } from '#src/components/ui/button.tsx';
import { mainNav, visibleTo } from '#src/config/nav.ts';
import type { Translate } from '#src/i18n/t.ts';
import type { UserProfile } from '#src/lib/session.server.ts';
import { LanguageSwitch } from './language-switch.tsx';
import { LoginLink } from './login-link.tsx';
import { MobileNav } from './mobile-nav.tsx';
import { NavLink } from './nav-link.tsx';
import { StoredSession } from './stored-session.tsx';
import { UserMenu } from './user-menu.tsx';

/** The sticky bar: the product title, the language switch, then Login, or the nav and the account menu (a drawer below 600px). */
export function AppHeader({ user, t }: { user: UserProfile | null; t: Translate }) {
  const nav = user ? visibleTo(mainNav, user.isAdmin) : [];
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/80">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4">
        {user ? <MobileNav user={user} /> : null}
        <Link to="/" className="rounded-md text-lg font-bold tracking-tight text-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
          SwapPoints
        </Link>
        <div className="ml-auto flex items-center gap-2">
          <LanguageSwitch signedIn={user !== null} />
          {user ? (
            <>
              <nav aria-label={t('nav.main')} className="hidden min-[600px]:block">
                <ul className="flex items-center gap-1">
                  {nav.map((item) => (
                    <li key={item.href}>
                      <Button asChild variant="ghost" size="sm" className="aria-[current=page]:bg-accent aria-[current=page]:text-accent-foreground">
                        <NavLink to={item.href}>{t(item.label)}</NavLink>
                      </Button>
                    </li>
                  ))}
                </ul>
              </nav>
              <div className="hidden min-[600px]:block">
                <UserMenu user={user} />
              </div>
            </>
          ) : (
            <LoginLink />
          )}
        </div>
      </div>
      <StoredSession user={user ? { uid: user.uid, email: user.email } : null} />
    </header>
  );
}
