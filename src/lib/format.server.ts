import { unstable_getContext as getContext } from 'waku/server';
import { localeFrom } from './requests.ts';

/** The customer's locale for dates, from the page request's Accept-Language (en-IN when none fits). */
export function requestLocale(): string {
  return localeFrom(getContext().req.headers.get('accept-language'));
}
