import { buildSchema, GraphQLError, type GraphQLSchema } from 'graphql';

/**
 * The part of Shopify's Admin GraphQL schema SwapPoints touches, transcribed from the reference
 * (shopify.dev/docs/api/admin-graphql): names, arguments, nullability and enums as Shopify has them,
 * so a query Shopify would reject is rejected here too. Fields arrive with the version that added
 * them: `notify` on the credit input from 2026-07, merchant `note`s from 2027-01.
 */
export function shopifySchema(apiVersion: string): GraphQLSchema {
  const notes = apiVersion >= '2027-01';
  const notify = apiVersion >= '2026-07';
  return buildSchema(`
    scalar DateTime
    scalar Decimal
    enum CurrencyCode { AED AUD CAD CHF EUR GBP INR JPY NZD SGD USD }
    type MoneyV2 { amount: Decimal! currencyCode: CurrencyCode! }
    input MoneyInput { amount: Decimal! currencyCode: CurrencyCode! }
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    interface Node { id: ID! }

    input UniqueMetafieldValueInput { namespace: String key: String! value: String! }
    input CustomerIdentifierInput { id: ID emailAddress: String phoneNumber: String customId: UniqueMetafieldValueInput }
    type CustomerEmailAddress { emailAddress: String }
    interface HasStoreCreditAccounts {
      storeCreditAccounts(first: Int, after: String, last: Int, before: String, query: String): StoreCreditAccountConnection!
    }
    type Customer implements Node & HasStoreCreditAccounts {
      id: ID!
      firstName: String
      lastName: String
      displayName: String!
      defaultEmailAddress: CustomerEmailAddress
      storeCreditAccounts(first: Int, after: String, last: Int, before: String, query: String): StoreCreditAccountConnection!
    }

    type StoreCreditAccount implements Node {
      id: ID!
      balance: MoneyV2!
      owner: HasStoreCreditAccounts!
      transactions(first: Int, after: String, last: Int, before: String, reverse: Boolean = false,
        sortKey: TransactionSortKeys = CREATED_AT, query: String): StoreCreditAccountTransactionConnection!
    }
    type StoreCreditAccountEdge { cursor: String! node: StoreCreditAccount! }
    type StoreCreditAccountConnection { edges: [StoreCreditAccountEdge!]! nodes: [StoreCreditAccount!]! pageInfo: PageInfo! }
    enum TransactionSortKeys { CREATED_AT EXPIRES_AT }
    enum StoreCreditSystemEvent {
      ADJUSTMENT ORDER_CANCELLATION ORDER_PAYMENT ORDER_REFUND PAYMENT_FAILURE PAYMENT_RETURNED RECURRING_PAYMENT TAX_FINALIZATION
    }
    interface StoreCreditAccountTransaction {
      account: StoreCreditAccount! amount: MoneyV2! balanceAfterTransaction: MoneyV2! createdAt: DateTime!
      event: StoreCreditSystemEvent! ${notes ? 'note: String' : ''}
    }
    type StoreCreditAccountCreditTransaction implements StoreCreditAccountTransaction & Node {
      id: ID! account: StoreCreditAccount! amount: MoneyV2! balanceAfterTransaction: MoneyV2! createdAt: DateTime!
      event: StoreCreditSystemEvent! expiresAt: DateTime remainingAmount: MoneyV2! ${notes ? 'note: String' : ''}
    }
    type StoreCreditAccountDebitTransaction implements StoreCreditAccountTransaction & Node {
      id: ID! account: StoreCreditAccount! amount: MoneyV2! balanceAfterTransaction: MoneyV2! createdAt: DateTime!
      event: StoreCreditSystemEvent! ${notes ? 'note: String' : ''}
    }
    type StoreCreditAccountTransactionEdge { cursor: String! node: StoreCreditAccountTransaction! }
    type StoreCreditAccountTransactionConnection {
      edges: [StoreCreditAccountTransactionEdge!]! nodes: [StoreCreditAccountTransaction!]! pageInfo: PageInfo!
    }

    input StoreCreditAccountCreditInput {
      creditAmount: MoneyInput! expiresAt: DateTime ${notify ? 'notify: Boolean = false' : ''} ${notes ? 'note: String' : ''}
    }
    enum StoreCreditAccountCreditUserErrorCode {
      ACCOUNT_NOT_FOUND CREDIT_LIMIT_EXCEEDED EXPIRES_AT_IN_PAST MISMATCHING_CURRENCY NEGATIVE_OR_ZERO_AMOUNT
      OWNER_NOT_FOUND UNSUPPORTED_CURRENCY ${notes ? 'NOTE_TOO_LONG' : ''}
    }
    type StoreCreditAccountCreditUserError { code: StoreCreditAccountCreditUserErrorCode field: [String!] message: String! }
    type StoreCreditAccountCreditPayload {
      storeCreditAccountTransaction: StoreCreditAccountCreditTransaction
      userErrors: [StoreCreditAccountCreditUserError!]!
    }

    type Query {
      customer(id: ID!): Customer
      customerByIdentifier(identifier: CustomerIdentifierInput!): Customer
      storeCreditAccount(id: ID!): StoreCreditAccount
    }
    type Mutation {
      storeCreditAccountCredit(id: ID!, creditInput: StoreCreditAccountCreditInput!): StoreCreditAccountCreditPayload
    }
  `);
}

export const ALL_SCOPES = [
  'read_customers',
  'read_store_credit_accounts',
  'read_store_credit_account_transactions',
  'write_store_credit_account_transactions',
] as const;

/** Shopify's answer to a field the app has no scope for. */
export function accessDenied(field: string, scope: string): GraphQLError {
  return new GraphQLError(`Access denied for ${field} field. Required access: \`${scope}\` access scope.`, {
    extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: `\`${scope}\` access scope.` },
  });
}

/** A page of a connection the way Shopify pages: `first`/`last` required, opaque cursors. */
export function connection<T>(items: T[], cursorOf: (item: T) => string, args: { first?: number; last?: number; after?: string; before?: string }) {
  if (args.first == null && args.last == null) throw new GraphQLError('you must provide one of first or last');
  if ((args.first ?? 0) > 250 || (args.last ?? 0) > 250) throw new GraphQLError('The maximum number of items per page is 250');
  let list = items;
  if (args.after) list = list.slice(list.findIndex((i) => cursorOf(i) === args.after) + 1);
  if (args.before) list = list.slice(0, Math.max(0, list.findIndex((i) => cursorOf(i) === args.before)));
  const page = args.first != null ? list.slice(0, args.first) : list.slice(Math.max(0, list.length - args.last!));
  const hasNextPage = args.first != null && list.length > page.length;
  const hasPreviousPage = args.last != null && list.length > page.length;
  return {
    nodes: page,
    edges: page.map((node) => ({ cursor: cursorOf(node), node })),
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: page[0] ? cursorOf(page[0]) : null,
      endCursor: page.length ? cursorOf(page[page.length - 1]!) : null,
    },
  };
}
