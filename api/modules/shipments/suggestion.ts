import type { AppContext } from '#api/context.ts';
import { ShopError, type ShopAddress } from '#api/integrations/shop/types.ts';
import { conflict } from '#api/lib/errors.ts';
import { ownRequestOr404 } from '#api/modules/requests/queries.ts';
import { customerRef } from '#api/modules/users/queries.ts';
import { countryCode } from '#api/modules/warehouses/rules.ts';
import type { PickupSuggestion } from './model.ts';
import { pickupPersonOf } from './queries.ts';
import { LABELS_NOT_OFFERED, PICKUP_LIMITS, type PickupField } from './rules.ts';

/**
 * GET /api/exchange/{id}/label/address: what the pickup form starts with, from the shop's default
 * address for the customer. Only a suggestion: the customer may change every field, and the label's
 * own checks apply on submit. The shop is asked with a short deadline, and when it fails or is slow
 * the form starts with what SwapPoints knows (the name, the profile's phone) instead of failing.
 */

/** how long the form waits for the shop before it starts without the address */
const SHOP_WAIT_MS = 4_000;

const ADDRESS_FIELDS = ['addressLine1', 'addressLine2', 'city', 'state', 'postalCode'] as const satisfies readonly PickupField[];

/** A value the form can take as it is: one longer than the field allows is left for the customer to type. */
const fit = (field: PickupField, value: string | null | undefined) => (value && value.length <= PICKUP_LIMITS[field] ? value : null);

async function shopAddress(ctx: AppContext, userId: string): Promise<ShopAddress | null> {
  try {
    return await ctx.shop.customerAddress(await customerRef(ctx.db, userId), { deadline: Date.now() + SHOP_WAIT_MS });
  } catch (error) {
    if (!(error instanceof ShopError)) throw error;
    ctx.log.warn('the shop did not give the customer\'s address; the pickup form starts without it', { error: error.message });
    return null;
  }
}

export async function pickupSuggestion(ctx: AppContext, user: { id: string }, id: string | undefined): Promise<PickupSuggestion> {
  if (!ctx.carrier) throw conflict(LABELS_NOT_OFFERED);
  await ownRequestOr404(ctx.db, user.id, id);
  const [address, person] = await Promise.all([shopAddress(ctx, user.id), pickupPersonOf(ctx.db, user.id)]);
  // a courier picks up in the shop's country only: an address abroad is no suggestion for it
  const shopCountry = countryCode(ctx.settings.shopCountry) ?? ctx.settings.shopCountry;
  const usable = address && (!address.countryCode || address.countryCode.toUpperCase() === shopCountry) ? address : null;
  const suggestion: PickupSuggestion = {
    name: fit('name', usable?.name) ?? fit('name', person.name),
    phone: fit('phone', usable?.phone) ?? fit('phone', person.phone),
    addressLine1: null,
    addressLine2: null,
    city: null,
    state: null,
    postalCode: null,
    fromShop: false,
  };
  for (const field of ADDRESS_FIELDS) suggestion[field] = fit(field, usable?.[field]);
  suggestion.fromShop = ADDRESS_FIELDS.some((field) => suggestion[field] !== null);
  return suggestion;
}
