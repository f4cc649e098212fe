import type { ReactNode } from 'react';
import { pageLanguage } from '#src/i18n/language.server.ts';
import { t } from '#src/i18n/t.ts';

export default async function Root({ children }: { children: ReactNode }) {
  // the page's language (the customer's, else the browser's): screen readers and hyphenation follow it
  const lang = await pageLanguage();
  return (
    <html lang={lang}>
      <head>
        <meta name="description" content={t(lang, 'signIn.tagline')} />
        <meta name="theme-color" content="#0e6b63" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">{children}</body>
    </html>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
