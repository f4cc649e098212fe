import type { Db } from '#api/db/connect.ts';
import { normalizeEmail } from '#api/lib/email.ts';
import type { Logger } from '#api/lib/log.ts';
import type { Settings } from '#api/settings.ts';
import { createGraphQLClient, ShopifyRequestError, withDeadline, type ClientOptions, type GraphQLClient } from './shopify-client.ts';
import { creditNote, findEarlierCredit, supportsNotes } from './shopify-earlier-credit.ts';
import { listCreditTransactions } from './shopify-transactions.ts';
import { stateName } from '#api/modules/warehouses/states.ts';
import { ShopError, type CreditPush, type CustomerRef, type PushOutcome, type ShopAddress, type ShopBackend } from './types.ts';

/**
 * The shop on Shopify, through the Admin GraphQL API: customers by email
 * (`customerByIdentifier`), their default address for the pickup form, their store credit accounts
 * for the balance, and `storeCreditAccountCredit` to credit them. See docs/shopify.md.
 */

const CUSTOMER_NOT_FOUND = 'User not found in Shopify';
const CONNECTION_ERROR = 'Error connecting to Shopify';
const NO_RESPONSE = 'No response from server';

export const FIND_CUSTOMER = `query SwapPointsFindCustomer($identifier: CustomerIdentifierInput!) {
  customerByIdentifier(identifier: $identifier) {
    id
    firstName
    lastName
    defaultEmailAddress { emailAddress }
  }
}`;

export const CUSTOMER_CREDIT = `query SwapPointsCustomerCredit($identifier: CustomerIdentifierInput!) {
  customerByIdentifier(identifier: $identifier) {
    id
    storeCreditAccounts(first: 25) {
      nodes { id balance { amount currencyCode } }
    }
  }
}`;

/** The default address for the pickup form; the customer's own phone when the address has none. */
export const CUSTOMER_ADDRESS = `query SwapPointsCustomerAddress($identifier: CustomerIdentifierInput!) {
  customerByIdentifier(identifier: $identifier) {
    id
    firstName
    lastName
    defaultPhoneNumber { phoneNumber }
    defaultAddress { name address1 address2 city province provinceCode zip countryCodeV2 phone }
  }
}`;

export const CREDIT = `mutation SwapPointsCredit($id: ID!, $creditInput: StoreCreditAccountCreditInput!) {
  storeCreditAccountCredit(id: $id, creditInput: $creditInput) {
    storeCreditAccountTransaction {
      id
      createdAt
      amount { amount currencyCode }
      balanceAfterTransaction { amount currencyCode }
    }
    userErrors { code field message }
  }
}`;

interface CustomerNode {
  id: string;
  firstName: string | null;
  lastName: string | null;
  defaultEmailAddress: { emailAddress: string | null } | null;
}

interface AddressNode {
  firstName: string | null;
  lastName: string | null;
  defaultPhoneNumber: { phoneNumber: string } | null;
  defaultAddress: {
    name: string | null;
    address1: string | null;
    address2: string | null;
    city: string | null;
    province: string | null;
    provinceCode: string | null;
    zip: string | null;
    countryCodeV2: string | null;
    phone: string | null;
  } | null;
}

const text = (value: string | null | undefined) => value?.trim() || null;

/** A Shopify customer's default address as the pickup form's fields; null without one. */
export function shopAddressOf(customer: AddressNode): ShopAddress | null {
  const a = customer.defaultAddress;
  if (!a) return null;
  const country = text(a.countryCodeV2);
  return {
    name: text(a.name) ?? ([customer.firstName, customer.lastName].map(text).filter(Boolean).join(' ') || null),
    phone: text(a.phone) ?? text(customer.defaultPhoneNumber?.phoneNumber),
    addressLine1: text(a.address1),
    addressLine2: text(a.address2),
    city: text(a.city),
    state: text(a.province) ?? stateName(country, a.provinceCode),
    postalCode: text(a.zip),
    countryCode: country,
  };
}

interface CreditAccounts {
  id: string;
  storeCreditAccounts: { nodes: { id: string; balance: { amount: string; currencyCode: string } }[] };
}

interface CreditPayload {
  storeCreditAccountCredit: {
    storeCreditAccountTransaction: { id: string } | null;
    userErrors: { code: string | null; field: string[] | null; message: string }[];
  } | null;
}

/** A stored shop customer id as a Customer GID: Shopify's own GID, or the numeric id of a customer export. */
export function customerGid(shopCustomerId: string | null): string | null {
  if (!shopCustomerId) return null;
  if (/^gid:\/\/shopify\/Customer\/\d+$/.test(shopCustomerId)) return shopCustomerId;
  if (/^\d+$/.test(shopCustomerId)) return `gid://shopify/Customer/${shopCustomerId}`;
  return null;
}

/** A request failure as the spec's credit error (§8): timeouts are "no response", the rest a connection error. */
function shopError(error: unknown): ShopError {
  if (error instanceof ShopifyRequestError) {
    return new ShopError(error.kind, error.kind === 'no_response' ? NO_RESPONSE : CONNECTION_ERROR);
  }
  return new ShopError('connection', CONNECTION_ERROR);
}

function failed(error: string, retryable: boolean): PushOutcome {
  return { status: 'failed', error: error.slice(0, 1000), retryable };
}

export function shopifyShop(settings: Settings, db: Db, log: Logger, options: ClientOptions & { client?: GraphQLClient } = {}): ShopBackend {
  const base = options.client ?? createGraphQLClient(settings.shopify, log.child({ integration: 'shopify' }), options);
  const currency = settings.shopCurrency;
  const withNotes = supportsNotes(settings.shopify.apiVersion);

  /** The customer behind a SwapPoints user, read with `query`: by the id kept at sign-in, else (or if that one is gone) by email. */
  async function customerBy<T>(query: string, ref: CustomerRef, client: GraphQLClient): Promise<T | null> {
    const gid = customerGid(ref.shopCustomerId);
    if (gid) {
      const byId = await client.request<{ customerByIdentifier: T | null }>('looking up a customer', query, { identifier: { id: gid } });
      if (byId.customerByIdentifier) return byId.customerByIdentifier;
    }
    const byEmail = await client.request<{ customerByIdentifier: T | null }>('looking up a customer', query, {
      identifier: { emailAddress: normalizeEmail(ref.email) },
    });
    return byEmail.customerByIdentifier;
  }
  const customerCredit = (ref: CustomerRef, client: GraphQLClient = base) => customerBy<CreditAccounts>(CUSTOMER_CREDIT, ref, client);

  async function push(request: CreditPush): Promise<PushOutcome> {
    if (!/^\d+(\.\d{1,2})?$/.test(request.amount) || Number(request.amount) <= 0) {
      return failed(`Not a positive amount: "${request.amount}"`, false);
    }
    const client = withDeadline(base, request.deadline);
    const customer = await customerCredit(request.customer, client);
    if (!customer) return failed(`${CUSTOMER_NOT_FOUND} (${request.customer.email})`, false);
    const note = withNotes ? creditNote(request.ledgerId, settings.publicUrl) : null;

    if (request.previousAttemptUnknown) {
      const account = customer.storeCreditAccounts.nodes.find((a) => a.balance.currencyCode === request.currency);
      const earlier = await findEarlierCredit(client, db, request, account, note);
      if (earlier.found) {
        log.info('shopify credit from an earlier attempt found; not crediting again', { ledgerId: request.ledgerId, transactionId: earlier.transactionId });
        return { status: 'success', transactionId: earlier.transactionId };
      }
      if (!earlier.certain) {
        return failed('Could not read enough of the store credit history to rule out an earlier credit; will look again', true);
      }
    }

    const creditInput: Record<string, unknown> = { creditAmount: { amount: request.amount, currencyCode: request.currency } };
    if (note) creditInput.note = note;
    if (request.expiresAt) creditInput.expiresAt = request.expiresAt;
    if (settings.shopify.notifyCustomer) creditInput.notify = true;
    const data = await client.request<CreditPayload>('crediting store credit', CREDIT, { id: customer.id, creditInput });
    const payload = data.storeCreditAccountCredit;
    if (payload && payload.userErrors.length > 0) {
      const message = payload.userErrors.map((e) => (e.code ? `${e.message} (${e.code})` : e.message)).join('; ');
      log.warn('shopify refused the credit', { ledgerId: request.ledgerId, error: message });
      return failed(`Shopify refused the credit: ${message}`, false);
    }
    const transaction = payload?.storeCreditAccountTransaction;
    if (!transaction?.id) return failed('Shopify answered the credit without a transaction; will look for it before trying again', true);
    return { status: 'success', transactionId: transaction.id };
  }

  return {
    kind: 'shopify',

    async findCustomer(email) {
      try {
        const data = await base.request<{ customerByIdentifier: CustomerNode | null }>('looking up a customer', FIND_CUSTOMER, {
          identifier: { emailAddress: normalizeEmail(email) },
        });
        const customer = data.customerByIdentifier;
        if (!customer) return null;
        return {
          shopCustomerId: customer.id,
          email: normalizeEmail(customer.defaultEmailAddress?.emailAddress ?? email),
          firstName: customer.firstName,
          lastName: customer.lastName,
        };
      } catch (error) {
        throw shopError(error);
      }
    },

    async getBalance(ref) {
      let customer: CreditAccounts | null;
      try {
        customer = await customerCredit(ref);
      } catch (error) {
        throw shopError(error);
      }
      if (!customer) throw new ShopError('not_found', CUSTOMER_NOT_FOUND);
      const account = customer.storeCreditAccounts.nodes.find((a) => a.balance.currencyCode === currency);
      return { amount: account ? Number(account.balance.amount) : 0, currency };
    },

    async customerAddress(ref, options = {}) {
      try {
        const customer = await customerBy<AddressNode>(CUSTOMER_ADDRESS, ref, withDeadline(base, options.deadline));
        return customer ? shopAddressOf(customer) : null;
      } catch (error) {
        throw shopError(error);
      }
    },

    async creditTransactions(ref, since) {
      try {
        const customer = await customerCredit(ref);
        if (!customer) return null;
        return await listCreditTransactions(base, customer.storeCreditAccounts.nodes, since, withNotes ? { host: new URL(settings.publicUrl).host } : null);
      } catch (error) {
        throw shopError(error);
      }
    },

    async pushCredit(request) {
      try {
        return await push(request);
      } catch (error) {
        // The outcome is unknown (timeout, reset, 5xx, unreadable answer): the next attempt looks before it credits.
        const message = error instanceof ShopifyRequestError ? error.message : `unexpected error: ${(error as Error)?.message ?? error}`;
        if (!(error instanceof ShopifyRequestError)) log.error('shopify credit push failed unexpectedly', { ledgerId: request.ledgerId, error: message });
        return failed(`${error instanceof ShopifyRequestError && error.kind === 'no_response' ? NO_RESPONSE : CONNECTION_ERROR}: ${message}`, true);
      }
    },
  };
}
