import { t, type UnwrapSchema } from 'elysia';

/** Shopify's compliance payloads (shopify.dev, "Privacy law compliance"): ids are numbers, extra fields are ignored. */
const ShopifyCustomer = t.Object({
  id: t.Integer(),
  email: t.Optional(t.Union([t.String({ maxLength: 320 }), t.Null()])),
  phone: t.Optional(t.Union([t.String({ maxLength: 64 }), t.Null()])),
});

export const CustomersDataRequestPayload = t.Object({
  shop_id: t.Integer(),
  shop_domain: t.String({ minLength: 1, maxLength: 255 }),
  customer: ShopifyCustomer,
  orders_requested: t.Optional(t.Array(t.Integer())),
  data_request: t.Optional(t.Object({ id: t.Integer() })),
});

export const CustomersRedactPayload = t.Object({
  shop_id: t.Integer(),
  shop_domain: t.String({ minLength: 1, maxLength: 255 }),
  customer: ShopifyCustomer,
  orders_to_redact: t.Optional(t.Array(t.Integer())),
});

export const ShopRedactPayload = t.Object({
  shop_id: t.Integer(),
  shop_domain: t.String({ minLength: 1, maxLength: 255 }),
});

export type CustomersDataRequest = UnwrapSchema<typeof CustomersDataRequestPayload>;
export type CustomersRedact = UnwrapSchema<typeof CustomersRedactPayload>;

export const WebhookAccepted = t.Object({
  accepted: t.Literal(true),
  /** true when this X-Shopify-Webhook-Id was received before: the work is done once */
  duplicate: t.Boolean(),
});

export const AccountErased = t.Object({
  erased: t.Literal(true),
  message: t.String(),
  pseudonym: t.String({ description: 'what lists and the ledger show in place of the customer from now on' }),
});

export const ZipFile = t.String({ contentMediaType: 'application/zip', description: 'a ZIP holding swappoints-data.json and the images folder' });
