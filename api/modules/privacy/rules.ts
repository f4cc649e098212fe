/** Privacy (issue 25): the messages and names that pages, the CLI and the API share. Plain TypeScript. */

/** The domain of an erased customer's pseudonymous address: `.invalid` can never receive mail (RFC 2606). */
export const ERASED_DOMAIN = 'erased.invalid';

export const ERASED_PREFIX = 'erased-';

export const isErasedEmail = (email: string) => email.startsWith(ERASED_PREFIX) && email.endsWith(`@${ERASED_DOMAIN}`);

export const NO_SUCH_CUSTOMER = (email: string) => `No customer with the email ${email} is held here: there is nothing to erase or export.`;

export const PARCEL_ON_ITS_WAY = (product: string) =>
  `A parcel is on its way for your request "${product}": the account can be deleted once it has been received.`;

export const OFFER_OPEN = (product: string) =>
  `An offer for your request "${product}" is waiting for your answer: the account can be deleted once you have accepted or declined it.`;

export const ACCOUNT_ERASED_NOTE = "Withdrawn: the customer's account was erased.";

export const ERASED_MESSAGE = 'Your account and your personal data have been deleted. You have been signed out.';

export const EXPORT_FILE_NAME = 'swappoints-my-data.zip';

export const DELETE_ACCOUNT_CONFIRM =
  'Delete your account? Your email, name, photos, shipping notes and mails are removed for good; credit already given stays with the shop. This cannot be undone.';

/** The compliance topics Shopify sends, as the path after /api/shopify/webhooks/. */
export const COMPLIANCE_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'] as const;
export type ComplianceTopic = (typeof COMPLIANCE_TOPICS)[number];

export const BAD_SIGNATURE = 'The webhook signature (X-Shopify-Hmac-Sha256) is missing or does not match.';
export const TOPIC_MISMATCH = 'X-Shopify-Topic does not match the address the webhook was sent to.';
export const WEBHOOK_ID_MISSING = 'X-Shopify-Webhook-Id is missing.';
export const BAD_PAYLOAD = 'The webhook body is not the JSON this topic carries.';
