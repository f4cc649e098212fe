import { unstable_getContext as getContext } from 'waku/server';
import { LANGUAGE_LOCALES, visitorLanguage, type Language } from '#api/modules/users/rules.ts';
import { publicSettings } from '#src/lib/host.server.ts';
import { setDisplayTimeZone } from '#src/lib/requests.ts';
import { currentUser } from '#src/lib/session.server.ts';
import { translator } from './t.ts';

/** The page's language: the signed-in customer's saved one, else the visitor's choice (cookie), else Accept-Language, else English. */
export async function pageLanguage(): Promise<Language> {
  const user = await currentUser();
  if (user) return user.language;
  const headers = getContext().req.headers;
  return visitorLanguage({ cookie: headers.get('cookie'), acceptLanguage: headers.get('accept-language') });
}

/** The page's language, its Intl locale (en-IN, hi-IN) for dates and amounts in the shop's time zone, and its texts. */
export async function pageTexts() {
  const lang = await pageLanguage();
  setDisplayTimeZone(publicSettings().shopTimeZone);
  return { lang, locale: LANGUAGE_LOCALES[lang], t: translator(lang) };
}
