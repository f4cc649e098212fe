/**
 * How an exchange request is presented (spec §2-§5, DESIGN.md): labels, badge and status-line
 * rules, transit chips, the process stepper, dates and the page constants. Pure functions only:
 * server pages, client islands and the admin pages all read them from here.
 */

import { dateTimeFormat } from '#api/lib/intl.ts';
import { MAX_IMAGES_PER_REQUEST } from '#api/modules/images/rules.ts';
import { conditionLabel, conditionShortLabel, eventLabel, normalTransit, transitChip, type ChipVariant, type TransitFacts } from '#api/modules/requests/rules.ts';
import { en } from '#src/i18n/en.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { serverText } from '#src/i18n/server-text.ts';
import { t, tn, type MessageKey, type Params } from '#src/i18n/t.ts';

/** Files picked beyond the fifth image are not added, and the customer is told so. */
export const tooManyImagesMessage = (extra: number, lang: Language = 'en') => tn(lang, 'images.tooMany', extra, { max: MAX_IMAGES_PER_REQUEST });
export const LIST_PAGE_SIZE = 10;
/** The dashboard lists this many; more shows 'View All Requests'. */
export const DASHBOARD_RECENT = 5;

// ---- status -------------------------------------------------------------------------------------

export type DisplayStatus = 'pending' | 'approved' | 'declined' | 'completed';

/** Customer views show approved, declined and completed as such; anything else as pending. */
export function displayStatus(status: string | null | undefined): DisplayStatus {
  return status === 'approved' || status === 'declined' || status === 'completed' ? status : 'pending';
}

const BADGE_VARIANTS: Record<DisplayStatus, ChipVariant> = { pending: 'warning', approved: 'info', declined: 'destructive', completed: 'success' };

/** The status badge: label (the catalogs' status.*) and colour; an unknown status shows as Pending. */
export function statusBadge(status: string | null | undefined, lang: Language = 'en'): { label: string; variant: ChipVariant } {
  const shown = displayStatus(status);
  return { label: t(lang, `status.${shown}`), variant: BADGE_VARIANTS[shown] };
}

/** The status filter of /exchange, as the spec lists it: '' is every status. */
export const STATUS_FILTERS = [
  { value: '', label: 'All Statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'declined', label: 'Declined' },
  { value: 'completed', label: 'Completed' },
] as const;

/**
 * /exchange?status=cancelled: what the customer cancelled (GET /api/exchange/cancelled). Not a
 * status (a cancelled request is deleted), so not one of the filter's options: a link beside it.
 */
export const CANCELLED_VIEW = 'cancelled';

export type ListFilter = (typeof STATUS_FILTERS)[number]['value'] | typeof CANCELLED_VIEW;

// ---- condition and transit chips in a language ----------------------------------------------------

const isKey = (key: string): key is MessageKey => key in en;

/** A condition's label (or its chip's short one) in `lang`; a value the catalogs do not know shows as the shop names it. */
export function conditionText(condition: string, lang: Language = 'en', short = false): string {
  const key = `condition.${condition}${short ? '.short' : ''}`;
  if (isKey(key)) return t(lang, key);
  return short ? conditionShortLabel(condition) : conditionLabel(condition);
}

/** Where the item is, as a chip (`transitChip`), labelled in `lang`. */
export function transitChipIn(request: TransitFacts, lang: Language = 'en'): { label: string; variant: ChipVariant } | null {
  const chip = transitChip(request);
  if (!chip) return null;
  const transit = normalTransit(request.transitStatus);
  const key = `transit.${transit ?? (request.shippingDetails ? 'shipped' : 'awaiting')}`;
  return isKey(key) ? { ...chip, label: t(lang, key) } : chip;
}

// ---- transit ------------------------------------------------------------------------------------

/**
 * The one-line status of a request (spec §4), from its transit status when it has one. A finished
 * request (completed or declined) says so whatever its transit status: a completed request keeps
 * 'received' as its transit status, and 'under inspection' would read as if it were still open.
 */
export function statusLine(status: string | null | undefined, transitStatus: string | null | undefined, lang: Language = 'en'): string {
  const [key, params] = statusLineKey(status, transitStatus);
  return t(lang, key, params);
}

function statusLineKey(status: string | null | undefined, transitStatus: string | null | undefined): [MessageKey, Params?] {
  if (status === 'completed') return ['line.completed'];
  if (status === 'declined') return ['line.declined'];
  const transit = normalTransit(transitStatus);
  if (transit) {
    if (transit === 'shipped') return ['line.shipped'];
    if (transit === 'received') return ['line.received'];
    if (transit === 'ready') return ['line.ready'];
    return ['line.transit', { status: transitStatus ?? '' }];
  }
  return [status === 'approved' ? 'line.addShipping' : 'line.pending'];
}

export const CREDIT_ASSIGNED_LINE = t('en', 'line.creditAssigned');

export const OFFER_WAITING_LINE = t('en', 'line.offerWaiting');

/** The list's line for a request: the status line, that an offer waits for the customer's answer, or that its credit is assigned once it is (approved, credited, not yet completed). */
export function requestLine(
  request: { status: string; transitStatus: string | null; creditedAt?: string | null; creditAmount?: number | null; offer?: { status: string } | null },
  lang: Language = 'en',
): string {
  if (request.status === 'approved' && request.offer?.status === 'pending') return t(lang, 'line.offerWaiting');
  const credited = request.creditedAt !== undefined ? request.creditedAt !== null : Number(request.creditAmount ?? 0) > 0;
  if (request.status === 'approved' && credited) return t(lang, 'line.creditAssigned');
  return statusLine(request.status, request.transitStatus, lang);
}

// ---- stepper ------------------------------------------------------------------------------------

const STEP_KEYS = ['step.review', 'step.shipping', 'step.inspection', 'step.credit', 'step.complete'] as const satisfies readonly MessageKey[];
/** The five steps' titles in `lang` (the spec's English by default). */
export const stepTitles = (lang: Language = 'en') => STEP_KEYS.map((key) => t(lang, key));
export const STEP_TITLES = stepTitles();

interface StepFacts extends TransitFacts {
  creditAmount?: number | string | null;
  /** set once credit is assigned, 0 included (an item taken for recycling) */
  creditedAt?: string | null;
}

/** The spec's active step: 4 completed, 3 credit above 0 (or a 0 credit assigned), 2 received, 1 shipped or shipping details, else 0. */
export function activeStep(request: StepFacts): number {
  if (request.status === 'completed') return 4;
  if (Number(request.creditAmount ?? 0) > 0 || (request.creditedAt ?? null) !== null) return 3;
  const transit = normalTransit(request.transitStatus);
  if (transit === 'received') return 2;
  if (transit === 'shipped' || request.shippingDetails) return 1;
  return 0;
}

/** The first step's text. */
export function reviewStepText(status: string | null | undefined, lang: Language = 'en'): string {
  return t(lang, status === 'approved' ? 'step.approved' : status === 'pending' ? 'step.pending' : 'step.declined');
}

// ---- dashboard and list -------------------------------------------------------------------------

/** '1 Request' or 'N Requests'. */
export function requestCountLabel(count: number, lang: Language = 'en'): string {
  return tn(lang, 'dashboard.requestCount', count);
}

/** The dashboard search: product name, brand or status (as stored or as shown), case-insensitive. */
export function matchesDashboardSearch(
  request: { productName: string; brand: string; status: string },
  search: string,
  lang: Language = 'en',
): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [request.productName, request.brand, request.status, statusBadge(request.status).label, statusBadge(request.status, lang).label].some((v) =>
    (v ?? '').toLowerCase().includes(needle),
  );
}

/** 'Showing 11-20 of 23 requests' for page 2 of 10 (page counted from 1); 'of 1 request' for one. */
export function showingRange(page: number, pageSize: number, total: number, lang: Language = 'en'): string {
  if (total <= 0) return tn(lang, 'list.showing', 0, { first: 0, last: 0 });
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return tn(lang, 'list.showing', total, { first, last });
}

/** Reads /exchange's URL (q, status, page) into a valid view; anything odd falls back to the default. */
export function listView(query: string | URLSearchParams): { q: string; status: ListFilter; page: number } {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const q = (params.get('q') ?? '').slice(0, 200);
  const rawStatus = params.get('status') ?? '';
  const status: ListFilter = rawStatus === CANCELLED_VIEW ? CANCELLED_VIEW : (STATUS_FILTERS.find((f) => f.value === rawStatus)?.value ?? '');
  const page = Number(params.get('page') ?? '1');
  return { q, status, page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1 };
}

/** The URL of a /exchange view; defaults are left out so the plain list is plain /exchange. */
export function listHref(view: { q?: string; status?: string; page?: number }): string {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  if (view.status) params.set('status', view.status);
  if (view.page && view.page > 1) params.set('page', String(view.page));
  const search = params.toString();
  return search ? `/exchange?${search}` : '/exchange';
}

// ---- images -------------------------------------------------------------------------------------

export const UPLOAD_FAILED = t('en', 'images.uploadFailed');

// ---- dates --------------------------------------------------------------------------------------

const FALLBACK_LOCALE = 'en-IN';

/** The first usable language of an Accept-Language header ('en-IN,en;q=0.9' → 'en-IN'). */
export function localeFrom(acceptLanguage: string | null | undefined): string {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim();
    if (!tag || tag === '*') continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // not a language tag
    }
  }
  return FALLBACK_LOCALE;
}

/** The zone dates are shown in when a call names none: the shop's (SHOP_TIME_ZONE), set by the server's pages. */
let displayTimeZone: string | undefined;
export function setDisplayTimeZone(timeZone: string): void {
  displayTimeZone = timeZone;
}

function validDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A calendar date in the customer's language: '5 Mar 2025' (en-IN). A bare yyyy-mm-dd (the shipping
 * date) is that day everywhere; a timestamp is read in `timeZone` (the shop's by default).
 */
export function formatDate(value: string | Date | null | undefined, locale: string, timeZone: string | undefined = displayTimeZone): string {
  const bareDay = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = validDate(bareDay ? `${value}T00:00:00Z` : value);
  if (!date) return '—';
  return dateTimeFormat(locale, { dateStyle: 'medium', timeZone: bareDay ? 'UTC' : timeZone }).format(date);
}

/** A date and time with its zone: '5 Mar 2025, 2:30 pm UTC' (en-IN). */
export function formatDateTime(value: string | Date | null | undefined, locale: string, timeZone: string | undefined = displayTimeZone): string {
  const date = validDate(value);
  if (!date) return '—';
  return dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date) +
    ` ${zoneName(date, locale, timeZone)}`;
}

/** A time of day with its zone: '2:30 pm IST' (the shop's zone by default). */
export function formatTime(value: string | Date | null | undefined, locale: string, timeZone: string | undefined = displayTimeZone): string {
  const date = validDate(value);
  if (!date) return '—';
  return `${dateTimeFormat(locale, { timeStyle: 'short', timeZone }).format(date)} ${zoneName(date, locale, timeZone)}`;
}

function zoneName(date: Date, locale: string, timeZone?: string): string {
  const part = dateTimeFormat(locale, { timeZoneName: 'short', timeZone }).formatToParts(date).find((p) => p.type === 'timeZoneName');
  return part?.value ?? '';
}

// ---- timeline -----------------------------------------------------------------------------------

/** Who made a change, as the viewer may see it: an email when the API gives one, else the role. */
export function eventActor(event: { actorEmail: string | null; actorRole: string }, lang: Language = 'en'): string {
  if (event.actorEmail) return event.actorEmail;
  return t(lang, event.actorRole === 'admin' ? 'actor.admin' : event.actorRole === 'customer' ? 'actor.customer' : 'actor.system');
}

/** A timeline entry's title in `lang` (eventLabel's words in English); a type the catalogs do not know shows as eventLabel names it. */
export function eventTitle(type: string, fromStatus: string | null | undefined, lang: Language = 'en'): string {
  const key = type === 'shipped' && fromStatus === 'shipped' ? 'event.shipped.corrected' : `event.${type}`;
  return isKey(key) ? t(lang, key) : eventLabel(type, fromStatus);
}

/**
 * Events whose note the API composes in English from facts the request page shows in its own cards
 * (the parcel, the shipping details, the offer, the credit): another language leaves such a note
 * out rather than show an English sentence. A person's words (an admin's feedback) are shown as written.
 */
const COMPOSED_NOTES = new Set(['shipped', 'shipping_entered', 'label', 'tracking', 'offered', 'offer_accepted', 'credited', 'returned', 'reminded', 'deleted']);

/** A timeline entry's note as `lang` shows it: as written in English; else translated when the API wrote it, left out when composed, as written when a person's. */
export function eventNote(event: { type: string; note: string | null }, lang: Language = 'en'): string | null {
  if (!event.note || lang === 'en') return event.note;
  const shown = serverText(lang, event.note);
  if (shown !== event.note) return shown;
  return COMPOSED_NOTES.has(event.type) ? null : event.note;
}
