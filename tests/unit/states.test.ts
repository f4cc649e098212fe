import { describe, expect, test } from 'bun:test';
import { stateName } from '#api/modules/warehouses/states.ts';

describe("a province code becomes the state's name (the pickup form and carriers take names)", () => {
  test("Shopify's codes for India, and the ISO codes where they differ", () => {
    expect([stateName('IN', 'KA'), stateName('IN', 'DL'), stateName('IN', 'TN'), stateName('IN', 'CG'), stateName('IN', 'CT')]).toEqual(['Karnataka', 'Delhi', 'Tamil Nadu', 'Chhattisgarh', 'Chhattisgarh']);
    expect([stateName('IN', 'TS'), stateName('IN', 'TG'), stateName('IN', 'UK'), stateName('IN', 'UT'), stateName('IN', 'OR'), stateName('IN', 'OD')]).toEqual(['Telangana', 'Telangana', 'Uttarakhand', 'Uttarakhand', 'Odisha', 'Odisha']);
  });

  test("written 'IN-KA', in lower case or with spaces, and in the US", () => {
    expect([stateName('IN', 'IN-KA'), stateName('in', ' ka '), stateName('US', 'CA'), stateName('US', 'IN')]).toEqual(['Karnataka', 'Karnataka', 'California', 'Indiana']);
  });

  test('a code not on the list, or a country without one, is kept as written; no code is null', () => {
    expect([stateName('IN', 'ZZ'), stateName('GB', 'ENG'), stateName(null, 'KA'), stateName('IN', 'constructor')]).toEqual(['ZZ', 'ENG', 'KA', 'constructor']);
    expect([stateName('IN', ''), stateName('IN', null), stateName('IN', '  ')]).toEqual([null, null, null]);
  });
});
