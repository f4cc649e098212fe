import { buildSchema, extendSchema, GraphQLError, parse, type GraphQLSchema } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Shopify's Admin GraphQL schema as Shopify publishes it, for the version a test asks: the fake
 * answers only documents (and variables) that Shopify itself would accept.
 *
 * `tests/fixtures/shopify-admin/YYYY-MM.graphql.gz` are the published SDL files (repository
 * nozzlegear/ShopifySharp, `graphql-schemas/`, made by `scripts/shopify-schemas.ts`: descriptions
 * dropped, nothing else changed). A version newer than the newest file held is that file plus the
 * store-credit changes Shopify's changelog announces for the versions in between (`CHANGELOG`), each
 * naming its post, so what the fake adds beyond the published files is written down and small.
 * `assumeValid`: graphql-js 17 refuses the published schema over deprecation rules of its own
 * (an implementation deprecated where its interface is not), which Shopify does not apply.
 */
const FIXTURES = join(import.meta.dir, '../fixtures/shopify-admin');
export const PUBLISHED_VERSIONS = readdirSync(FIXTURES)
  .flatMap((f) => /^(\d{4}-\d{2})\.graphql\.gz$/.exec(f)?.[1] ?? [])
  .sort();

/** Store-credit changes announced in Shopify's changelog for versions after the newest published file. */
const CHANGELOG: { version: string; post: string; sdl: string }[] = [
  {
    // "As of GraphQL Admin API version 2027-01, you can attach a merchant-only note when crediting or
    // debiting a store credit account and read those notes on store credit transactions."
    version: '2027-01',
    post: 'https://shopify.dev/changelog/merchant-notes-on-store-credit-transactions',
    sdl: `
      extend input StoreCreditAccountCreditInput { note: String }
      extend input StoreCreditAccountDebitInput { note: String }
      extend interface StoreCreditAccountTransaction { note: String }
      extend type StoreCreditAccountCreditTransaction { note: String }
      extend type StoreCreditAccountDebitTransaction { note: String }
      extend type StoreCreditAccountDebitRevertTransaction { note: String }
      extend type StoreCreditAccountExpirationTransaction { note: String }
      extend enum StoreCreditAccountCreditUserErrorCode { NOTE_TOO_LONG }
      extend enum StoreCreditAccountDebitUserErrorCode { NOTE_TOO_LONG }`,
  },
];

const built = new Map<string, GraphQLSchema>();

export function shopifySchema(apiVersion: string): GraphQLSchema {
  const cached = built.get(apiVersion);
  if (cached) return cached;
  const base = PUBLISHED_VERSIONS.filter((v) => v <= apiVersion).at(-1);
  if (!base) throw new Error(`No published Shopify Admin schema at or before ${apiVersion} in ${FIXTURES}`);
  const sdl = new TextDecoder().decode(Bun.gunzipSync(readFileSync(join(FIXTURES, `${base}.graphql.gz`))));
  let schema = buildSchema(sdl, { assumeValidSDL: true, assumeValid: true });
  for (const change of CHANGELOG) {
    if (change.version > base && change.version <= apiVersion) schema = extendSchema(schema, parse(change.sdl), { assumeValidSDL: true, assumeValid: true });
  }
  built.set(apiVersion, schema);
  return schema;
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
