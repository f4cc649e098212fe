/**
 * The shop SwapPoints serves: who its customers are and their store credit. One interface, two
 * implementations (embedded, Shopify); nothing outside api/integrations/shop knows which one runs.
 */

export interface ShopCustomerInfo {
  /** the shop's own id for the customer (Shopify: a customer GID) */
  shopCustomerId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export interface CustomerRef {
  userId: string;
  email: string;
  shopCustomerId: string | null;
}

export interface Balance {
  amount: number;
  currency: string;
}

export interface CreditPush {
  /** the ledger row's id: the push's idempotency key */
  ledgerId: number;
  amount: string;
  currency: string;
  customer: CustomerRef;
  /** set when an earlier attempt's outcome is unknown: the backend must look for it before crediting again */
  previousAttemptUnknown: boolean;
}

export type PushOutcome =
  | { status: 'success'; transactionId: string }
  | { status: 'failed'; error: string; retryable: boolean };

/** A failure of the shop itself, mapped to the spec's credit error variants. */
export class ShopError extends Error {
  override name = 'ShopError';
  constructor(
    readonly kind: 'not_found' | 'connection' | 'no_response',
    message: string,
  ) {
    super(message);
  }
}

export interface ShopBackend {
  readonly kind: 'embedded' | 'shopify';
  findCustomer(email: string): Promise<ShopCustomerInfo | null>;
  getBalance(customer: CustomerRef): Promise<Balance>;
  pushCredit(push: CreditPush): Promise<PushOutcome>;
}
