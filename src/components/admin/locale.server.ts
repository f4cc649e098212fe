import { unstable_getContext as getContext } from 'waku/server';
import { localeFrom } from '#src/lib/requests.ts';

/** The viewer's language for dates, from the page request's Accept-Language. */
export function pageLocale(): string {
  return localeFrom(getContext().req.headers.get('accept-language'));
}
