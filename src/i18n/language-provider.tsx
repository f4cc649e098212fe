'use client';

import { createContext, use, useContext, type ReactNode } from 'react';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { catalogReady, loadCatalog, translator } from './t.ts';

const LanguageContext = createContext<Language>('en');

/**
 * Gives the client islands below it the page's language (the layout sets it), once its texts are
 * here: in the browser a page in Hindi waits for them (hydration too), on the server they always are.
 */
export function LanguageProvider({ lang, children }: { lang: Language; children: ReactNode }) {
  if (!catalogReady(lang)) use(loadCatalog(lang));
  return <LanguageContext.Provider value={lang}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): Language {
  return useContext(LanguageContext);
}

/** The page's language, its locale, and `t` for its texts, in a client island. */
export function useTexts() {
  const lang = useLanguage();
  return { lang, locale: LANGUAGE_LOCALES[lang], t: translator(lang) };
}
