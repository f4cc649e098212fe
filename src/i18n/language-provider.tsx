'use client';

import { createContext, useContext, type ReactNode } from 'react';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { translator } from './t.ts';

const LanguageContext = createContext<Language>('en');

/** Gives the client islands below it the page's language (the layout sets it). */
export function LanguageProvider({ lang, children }: { lang: Language; children: ReactNode }) {
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
