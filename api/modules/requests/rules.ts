import { CONDITIONS, type Condition, type RequestStatus } from '#api/db/types.ts';
import { todayIn } from '#api/lib/days.ts';
import { ADMIN_TEXT_LIMITS, CARRIERS_BY_COUNTRY, CONDITION_LABELS, CREDIT_USUALLY_WITHIN_DAYS, OTHER_COUNTRY_CARRIERS, REQUEST_TEXT_LIMITS } from '#api/config/shop.ts';
import { tooLongMessage } from '#api/lib/text.ts';

/**
 * Rules of the request journey that the API enforces and the pages repeat to help before a call:
 * plain TypeScript, no framework import, so `src/` and `cli/` read them from here.
 */

export const FILL_REQUIRED_FIELDS = 'Please fill in all required fields';
export { NEED_AN_IMAGE } from '#api/modules/images/rules.ts';
export const FILL_SHIPPING_FIELDS = 'Please fill in all required shipping fields';
export const CREDIT_BEFORE_COMPLETING = 'You must assign credit before completing the exchange';
export const WAREHOUSE_REQUIRED = 'Please select a warehouse for shipping the product';
export { INVALID_CONDITION } from '#api/modules/valuation/rules.ts';

export const CONDITION_OPTIONS = CONDITIONS.map((value) => ({ value, ...CONDITION_LABELS[value] }));

const labelsOf = (value: string | null | undefined) => CONDITION_LABELS[value as Condition] as { label: string; short: string } | undefined;

/** 'like_new' → 'Like New (without tags)'; an unknown value is shown as it is. */
export function conditionLabel(value: string | null | undefined): string {
  return labelsOf(value)?.label ?? (value || '—');
}

/** 'like_new' → 'Like New' (the admin table's and the list card's chip). */
export function conditionShortLabel(value: string | null | undefined): string {
  return labelsOf(value)?.short ?? (value || '—');
}

export const FUTURE_SHIPPING_DATE = 'The shipping date cannot be in the future.';
/** Admin → Receive: the scanned code's longest length, and the answer to an empty or odd body. */
export const RECEIVE_CODE_MAX = 100;
export const SCAN_A_CODE = `Scan or type a tracking number or a packing slip reference (SP-…), at most ${RECEIVE_CODE_MAX} characters.`;
export const SHIPPING_LOCKED = 'Shipping details can no longer be changed: the item has already been received.';
export { CREDIT_USUALLY_WITHIN_DAYS };

/** The customer's refusals the pages also show (and translate): one home for their words. */
export const CUSTOMER_NOT_FOUND = "Exchange request not found or you don't have permission to view it.";
export const ONLY_PENDING_CANCEL = 'Only a pending request can be cancelled.';
export const SHIPPING_NEEDS_APPROVAL = 'Shipping details can only be added once the request is approved.';
export const SHIPPING_ALREADY_SUBMITTED = 'Shipping details have already been submitted for this request.';
export const NO_SHIPPING_TO_CORRECT = 'There are no shipping details to correct yet. Please add them first.';
export const CHANGED_MEANWHILE = 'This request was changed by someone else at the same time. Please reload it and try again.';
export const tooManyOpenMessage = (max: number) =>
  `You already have ${max} open exchange requests. Please wait until one of them is decided or completed before filing another.`;
export const tooManyTodayMessage = (max: number) =>
  `You have filed ${max} exchange requests in the last 24 hours, the most allowed in a day. Please try again tomorrow.`;

export const DECLINE_NEEDS_FEEDBACK = 'Please tell the customer why the request is declined (Admin Feedback).';

export { todayIn };

/** yyyy-mm-dd strings compare in calendar order. */
export function isFutureDay(day: string, timeZone: string, now: Date = new Date()): boolean {
  return day > todayIn(timeZone, now);
}

/** Carriers customers in the shop's country commonly use (the list is api/config/shop.ts), for the Carrier Name suggestions. */
export function carriersFor(country: string): readonly string[] {
  return CARRIERS_BY_COUNTRY[country.toUpperCase()] ?? OTHER_COUNTRY_CARRIERS;
}

/** Columns the admin queue can be sorted by (`sort`), each with its direction (`order`). */
export const ADMIN_SORTS = ['date', 'product', 'brand', 'condition', 'email'] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

/** The admin queue's "waiting" filters (issue 24): offers waiting for the customer, declined offers' returns to ship. */
export const WAITING_FILTERS = { offers: 'Offers waiting', returns: 'Returns to ship' } as const;
export type WaitingFilter = keyof typeof WAITING_FILTERS;

/** The pending tab works oldest first (who has waited longest); the others show the newest first. */
export function defaultAdminOrder(tab: number): { sort: AdminSort; order: SortOrder } {
  return { sort: 'date', order: tab === 0 ? 'asc' : 'desc' };
}

// ---- the state machine (spec §4): which change each state allows, which tab holds it ---------------

/**
 * A request's state as the steps read it: its status, and whether the customer has sent shipping
 * details (shipped), the item has arrived (received) and credit is assigned (credited). The API's
 * conditional updates and the admin queue's tabs turn these into SQL (`requests/state-sql.ts`); the
 * pages read them from the API's answer (`stateOf`).
 */
export interface RequestState {
  status: RequestStatus;
  shipped: boolean;
  received: boolean;
  credited: boolean;
}

/** What a step requires: a status and, where it matters, each fact. */
export type StateRequirement = { status: RequestStatus } & Partial<Omit<RequestState, 'status'>>;

/** An admin's status changes: to each target, the status it comes from. */
export const STATUS_CHANGES = { approved: 'pending', declined: 'pending', completed: 'approved' } as const satisfies Partial<Record<RequestStatus, RequestStatus>>;
export type StatusChange = keyof typeof STATUS_CHANGES;

/** Each step of the journey and the state it may start from. */
export const STEPS = {
  approve: { status: 'pending' },
  decline: { status: 'pending' },
  cancel: { status: 'pending' },
  ship: { status: 'approved', shipped: false },
  receive: { status: 'approved', shipped: true, received: false },
  credit: { status: 'approved', received: true, credited: false },
  complete: { status: 'approved', credited: true },
} as const satisfies Record<string, StateRequirement>;
export type Step = keyof typeof STEPS;

/** The admin queue's tabs 0-3: the state of the requests each lists. */
export const TAB_STATES = [
  { status: 'pending' },
  { status: 'approved', shipped: false },
  { status: 'approved', shipped: true, received: false },
  { status: 'approved', shipped: true, received: true },
] as const satisfies readonly StateRequirement[];

export function meets(state: RequestState, requirement: StateRequirement): boolean {
  return (Object.keys(requirement) as (keyof RequestState)[]).every((fact) => requirement[fact] === state[fact]);
}

export const allows = (step: Step, state: RequestState): boolean => meets(state, STEPS[step]);

/** The tab a request is listed under, for the detail page's Back link; a decided-and-closed request goes back to tab 0. */
export function tabOf(state: RequestState): number {
  const tab = TAB_STATES.findIndex((requirement) => meets(state, requirement));
  return tab < 0 ? 0 : tab;
}

/** A request as the API answers it, read as its state. */
export function stateOf(request: { status: RequestStatus; shippingDetails: unknown; transitStatus: string | null; creditedAt?: string | null }): RequestState {
  return {
    status: request.status,
    shipped: Boolean(request.shippingDetails),
    received: normalTransit(request.transitStatus) === 'received',
    credited: request.creditedAt !== undefined && request.creditedAt !== null,
  };
}

/** Why an admin's status change from FROM to TO is refused, or null when it is allowed. */
export function statusChangeRefusal(from: RequestStatus, to: RequestStatus): string | null {
  if (to in STATUS_CHANGES && STATUS_CHANGES[to as StatusChange] === from) return null;
  if (to === 'pending') return 'A request that has been decided cannot go back to pending.';
  if (from === 'declined') return 'This request was declined; its status can no longer change.';
  if (from === 'completed') return 'This exchange is completed; its status can no longer change.';
  if (from === 'approved') return 'This request is already approved; it can no longer be declined.';
  return 'Only an approved request can be completed.';
}

// ---- how a request's state reads (the pages and the CLI show the same words) ----------------------

export type ChipVariant = 'default' | 'secondary' | 'outline' | 'success' | 'warning' | 'info' | 'destructive';

/** A stored transit status as the UI reads it: 'shipping' is 'shipped' (spec §4, DESIGN.md); blank is none. */
export function normalTransit(transit: string | null | undefined): string | null {
  const value = (transit ?? '').trim().toLowerCase();
  if (!value) return null;
  return value === 'shipping' ? 'shipped' : value;
}

export interface TransitFacts {
  status: string | null | undefined;
  transitStatus: string | null | undefined;
  shippingDetails?: unknown;
}

/**
 * The transit chip (Awaiting Shipping, Shipped, Received, Inspecting; 'ready' shows as Ready),
 * or null when the item is not on its way: a pending or declined request has no transit chip.
 */
export function transitChip(request: TransitFacts): { label: string; variant: ChipVariant } | null {
  const transit = normalTransit(request.transitStatus);
  if (transit === 'shipped') return { label: 'Shipped', variant: 'info' };
  if (transit === 'received') return { label: 'Received', variant: 'success' };
  if (transit === 'inspecting') return { label: 'Inspecting', variant: 'warning' };
  if (transit === 'ready') return { label: 'Ready', variant: 'success' };
  if (transit) return { label: transit.charAt(0).toUpperCase() + transit.slice(1), variant: 'secondary' };
  if (request.status === 'approved') return request.shippingDetails ? { label: 'Shipped', variant: 'info' } : { label: 'Awaiting Shipping', variant: 'warning' };
  return null;
}

/** Each timeline event's title, by type (the customer pages' catalogs take theirs from here). */
export const EVENT_LABELS = {
  created: 'Request submitted',
  approved: 'Request approved',
  declined: 'Request declined',
  shipped: 'Shipping details submitted',
  shipping_entered: 'Shipping details entered by an admin',
  received: 'Item received',
  credited: 'Credit assigned',
  completed: 'Exchange completed',
  cancelled: 'Request cancelled',
  deleted: 'Request deleted',
  offered: 'Offer made',
  offer_accepted: 'Offer accepted',
  offer_declined: 'Offer declined',
  returned: 'Item sent back',
  reminded: 'Reminder sent',
  label: 'Prepaid label created',
  tracking: 'Parcel tracking update',
} as const satisfies Record<string, string>;
export const SHIPPING_CORRECTED_LABEL = 'Shipping details corrected';

/** A timeline entry's title ('shipped' → 'Shipping details submitted'). */
export function eventLabel(type: string, fromStatus?: string | null): string {
  if (type === 'shipped' && fromStatus === 'shipped') return SHIPPING_CORRECTED_LABEL;
  return (EVENT_LABELS as Record<string, string>)[type] ?? type.charAt(0).toUpperCase() + type.slice(1);
}

// ---- text limits ---------------------------------------------------------------------------------

/** The most characters each text field takes (api/config/shop.ts). */
export { REQUEST_TEXT_LIMITS };
/** Each field as its form labels it. */
export const REQUEST_FIELD_LABELS: Record<keyof typeof REQUEST_TEXT_LIMITS, string> = {
  productName: 'Product Name',
  brand: 'Brand',
  description: 'Description',
  carrierName: 'Carrier Name',
  trackingNumber: 'Tracking Number',
  notes: 'Additional Notes',
};
/** 'Product Name can be at most 200 characters.': the API's refusal and the form's hint at the limit. */
export const requestTextTooLong = (field: keyof typeof REQUEST_TEXT_LIMITS) => tooLongMessage(REQUEST_FIELD_LABELS[field], REQUEST_TEXT_LIMITS[field]);

/** The admin actions' text limits and labels (api/config/shop.ts). */
export { ADMIN_TEXT_LIMITS };
type AdminTextField = keyof typeof ADMIN_TEXT_LIMITS;
/** 'Admin Feedback can be at most 10000 characters.': the API's refusal and the dialog's hint at the limit. */
export const adminTextTooLong = (field: AdminTextField) => tooLongMessage(ADMIN_TEXT_LIMITS[field].label, ADMIN_TEXT_LIMITS[field].max);
/** Whether a cleaned admin text is longer than its field takes. */
export const adminTextOverLimit = (field: AdminTextField, value: string | null) => (value?.length ?? 0) > ADMIN_TEXT_LIMITS[field].max;
