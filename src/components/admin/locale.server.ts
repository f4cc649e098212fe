import { unstable_getContext as getContext } from 'waku/server';
import { publicSettings } from '#src/lib/host.server.ts';
import { localeFrom, setDisplayTimeZone } from '#src/lib/requests.ts';

/** The viewer's language for dates, from the page request's Accept-Language; dates show in the shop's time zone. */
export function pageLocale(): string {
  setDisplayTimeZone(publicSettings().shopTimeZone);
  return localeFrom(getContext().req.headers.get('accept-language'));
}
