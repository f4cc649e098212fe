import { describe, expect, test } from 'bun:test';
import { graphqlSync, parse, validate } from 'graphql';
import { CREDIT, CUSTOMER_ADDRESS, CUSTOMER_CREDIT, FIND_CUSTOMER } from '#api/integrations/shop/shopify.ts';
import { supportsNotes, transactionsQuery } from '#api/integrations/shop/shopify-earlier-credit.ts';
import { PUBLISHED_VERSIONS, shopifySchema } from '#tests/helpers/fake-shopify-schema.ts';

/** The versions SwapPoints is run with: every published schema held, the default (2026-10) and the first with notes. */
const VERSIONS = [...PUBLISHED_VERSIONS.filter((v) => v >= '2025-07'), '2026-10', '2027-01'];

const documentsFor = (version: string) => ({
  FIND_CUSTOMER,
  CUSTOMER_CREDIT,
  CUSTOMER_ADDRESS,
  CREDIT,
  transactions: transactionsQuery(supportsNotes(version)),
});

const errorsOf = (version: string, document: string) => validate(shopifySchema(version), parse(document)).map((e) => e.message);

const creditVariables = (creditInput: Record<string, unknown>) => ({
  id: 'gid://shopify/Customer/1',
  creditInput: { creditAmount: { amount: '10.00', currencyCode: 'INR' }, ...creditInput },
});
const variableErrors = (version: string, creditInput: Record<string, unknown>) =>
  (graphqlSync({ schema: shopifySchema(version), source: CREDIT, variableValues: creditVariables(creditInput), rootValue: {} }).errors ?? []).map((e) => e.message);

describe("the GraphQL documents SwapPoints sends, checked against Shopify's published Admin schema", () => {
  test('the published schemas held are the ones the fake serves', () => {
    expect(PUBLISHED_VERSIONS).toEqual(expect.arrayContaining(['2025-07', '2026-01', '2026-04']));
  });

  for (const version of VERSIONS) {
    test(`every document is valid on ${version}`, () => {
      for (const [name, document] of Object.entries(documentsFor(version))) {
        expect({ name, errors: errorsOf(version, document) }).toEqual({ name, errors: [] });
      }
    });
  }

  test('reading notes is refused before 2027-01, as Shopify refuses it, and accepted from 2027-01', () => {
    expect(errorsOf('2026-10', transactionsQuery(true)).join('\n')).toContain('Cannot query field "note"');
    expect(errorsOf('2027-01', transactionsQuery(true))).toEqual([]);
  });

  test('notify on a credit is refused on 2025-07 and accepted from 2026-01 (as published, not from 2026-07)', () => {
    expect(variableErrors('2025-07', { notify: true }).join('\n')).toContain('notify');
    expect(variableErrors('2026-01', { notify: true })).toEqual([]);
    expect(variableErrors('2026-04', { notify: true })).toEqual([]);
  });

  test('a note on a credit is refused before 2027-01 and accepted from it', () => {
    expect(variableErrors('2026-10', { note: 'SwapPoints credit #1' }).join('\n')).toContain('note');
    expect(variableErrors('2027-01', { note: 'SwapPoints credit #1' })).toEqual([]);
  });
});
