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

/**
 * A customer's default address as the shop keeps it, to fill in a pickup form: every field may be
 * missing. `state` is the state's name ('Karnataka'), made from the shop's province code when the
 * shop gives only that; `phone` is the address's phone, else the customer's own.
 */
export interface ShopAddress {
  name: string | null;
  phone: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2 ('IN'), when the shop says */
  countryCode: string | null;
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
  /**
   * Epoch ms by which the push must be over, well inside its lease: after it no request is sent and
   * one in flight is abandoned, so no other worker can take the row while this one may still credit.
   */
  deadline?: number;
  /** when the credit expires (ISO 8601), if it does */
  expiresAt?: string | null;
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

/** A credit in the shop's own books that may be one SwapPoints gave (`credits reconcile`). */
export interface ShopCreditTransaction {
  id: string;
  /** a decimal string, as the shop gives it */
  amount: string;
  currency: string;
  createdAt: string;
  /** the ledger row the credit names (Shopify notes, API 2027-01 on); null when it names none */
  ledgerId: number | null;
}

export interface ShopBackend {
  readonly kind: 'embedded' | 'shopify';
  findCustomer(email: string): Promise<ShopCustomerInfo | null>;
  getBalance(customer: CustomerRef): Promise<Balance>;
  /**
   * The customer's default address; null when the shop has none (or no such customer). A failure of
   * the shop is a ShopError; `deadline` (epoch ms) bounds the wait.
   */
  customerAddress(customer: CustomerRef, options?: { deadline?: number }): Promise<ShopAddress | null>;
  pushCredit(push: CreditPush): Promise<PushOutcome>;
  /**
   * The customer's credits made since `since` that are not the shop's own (orders, refunds) nor
   * marked as someone else's; null when the shop has no such customer. Absent when the shop keeps
   * no transactions of its own (embedded): then only balances can be compared.
   */
  creditTransactions?(customer: CustomerRef, since: Date): Promise<ShopCreditTransaction[] | null>;
}
