import { normalTransit } from '#api/modules/requests/rules.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { t } from '#src/i18n/t.ts';

/** Where a request stands in the customer's journey, finer than its status: one banner and next step each. */
export type JourneyState = 'pending' | 'declined' | 'awaiting-shipping' | 'in-transit' | 'received' | 'credited' | 'completed';

export function journeyState(request: {
  status: string;
  transitStatus: string | null;
  shippingDetails: unknown;
  creditAmount: number;
  /** when credit was assigned (it may be 0); without it, credit above 0 counts as assigned */
  creditedAt?: string | null;
}): JourneyState {
  if (request.status === 'declined') return 'declined';
  if (request.status === 'completed') return 'completed';
  if (request.status !== 'approved') return 'pending';
  if (request.creditedAt !== undefined ? request.creditedAt !== null : request.creditAmount > 0) return 'credited';
  const transit = normalTransit(request.transitStatus);
  if (transit === 'received' || transit === 'inspecting' || transit === 'ready') return 'received';
  if (transit === 'shipped' || request.shippingDetails) return 'in-transit';
  return 'awaiting-shipping';
}

/** Who the request waits for now, as the viewer reads it: shown beside the stepper's current step (the customer's in `lang`, the admin's in English). */
export function waitingOn(state: JourneyState, viewer: 'customer' | 'admin' = 'customer', lang: Language = 'en'): string | null {
  const you = viewer === 'customer' ? t(lang, 'waiting.you') : 'Waiting for the customer';
  const team = viewer === 'customer' ? t(lang, 'waiting.team') : 'Waiting for you';
  switch (state) {
    case 'awaiting-shipping':
      return you;
    case 'in-transit':
      return t(viewer === 'customer' ? lang : 'en', 'waiting.item');
    case 'pending':
    case 'received':
    case 'credited':
      return team;
    default:
      return null;
  }
}

/** How long a request has waited, for the admin queue: '5 minutes', '1 hour', '3 days'. */
export function ageLabel(createdAt: string | Date, now: Date = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(createdAt).getTime()) / 60_000));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes < 60) return plural(minutes, 'minute');
  if (minutes < 24 * 60) return plural(Math.floor(minutes / 60), 'hour');
  return plural(Math.floor(minutes / (24 * 60)), 'day');
}
