import '../styles.css';
import type { ReactNode } from 'react';
import { FlashMessages } from '#src/components/common/flash.tsx';
import { AppHeader } from '#src/components/layout/app-header.tsx';
import { HydrationMarker } from '#src/components/layout/hydration-marker.tsx';
import { NavProgress } from '#src/components/layout/nav-progress.tsx';
import { SiteFooter } from '#src/components/layout/site-footer.tsx';
import { TermsUpdateBanner } from '#src/components/legal/terms-update-banner.tsx';
import { LanguageProvider } from '#src/i18n/language-provider.tsx';
import { pageTexts } from '#src/i18n/language.server.ts';
import { publicSettings } from '#src/lib/host.server.ts';
import { currentUser } from '#src/lib/session.server.ts';

export default async function Layout({ children }: { children: ReactNode }) {
  const [user, { lang, t }] = await Promise.all([currentUser(), pageTexts()]);
  return (
    <LanguageProvider lang={lang}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-card focus:px-3 focus:py-2 focus:shadow"
      >
        {t('layout.skip')}
      </a>
      <HydrationMarker />
      <NavProgress />
      <AppHeader user={user} t={t} />
      {user ? <TermsUpdateBanner /> : null}
      <main id="main" className="mx-auto min-h-[calc(100svh-3.5rem)] w-full max-w-6xl px-4 py-6 sm:py-8">
        {children}
      </main>
      <SiteFooter supportEmail={publicSettings().supportEmail} t={t} />
      <FlashMessages />
    </LanguageProvider>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
