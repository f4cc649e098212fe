import { unstable_getContext as getContext } from 'waku/server';
import { publicSettings } from './host.server.ts';
import { localeFrom, setDisplayTimeZone } from './requests.ts';

/** The customer's locale for dates, from the page request's Accept-Language (en-IN when none fits); dates show in the shop's time zone. */
export function requestLocale(): string {
  setDisplayTimeZone(publicSettings().shopTimeZone);
  return localeFrom(getContext().req.headers.get('accept-language'));
}
