import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedAwb, isEmbeddedAwb, luhnDigit } from '#api/integrations/carriers/embedded.ts';
import { referenceIdPrefix } from '#api/modules/requests/reference.ts';
import { pickupAddressProblem, trackingRank } from '#api/modules/shipments/rules.ts';
import { loadSettings } from '#api/settings.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'swappoints-carrier-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const base = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };

describe('the CARRIER setting', () => {
  test('the demo (embedded database and shop) books with the embedded carrier; a real shop starts with none', () => {
    expect(loadSettings(base).carrier).toBe('embedded');
    expect(loadSettings({ ...base, DEMO_SEED: 'false' }).carrier).toBe('none');
    expect(loadSettings({ ...base, DATABASE_URL: 'postgres://db.example/shop' }).carrier).toBe('none');
    expect(loadSettings({ ...base, DATABASE_URL: 'postgres://db.example/shop', CARRIER: 'embedded' }).carrier).toBe('embedded');
  });

  test('an unknown carrier stops the start, naming the setting', () => {
    expect(() => loadSettings({ ...base, CARRIER: 'fedex' })).toThrow('Invalid setting CARRIER: expected one of none, embedded, shiprocket, got "fedex".');
  });
});

describe('embedded AWB numbers', () => {
  test('a prefix, nine digits and a Luhn check digit; a mistyped digit is caught', () => {
    const awb = embeddedAwb(100000001);
    expect(awb).toMatch(/^SWP\d{10}$/);
    expect(isEmbeddedAwb(awb)).toBe(true);
    expect(isEmbeddedAwb(awb.slice(0, -2) + String((Number(awb.at(-2)) + 1) % 10) + awb.at(-1))).toBe(false);
    expect(luhnDigit('7992739871')).toBe(3);
  });

  test('an AWB is never read as a packing slip reference at the receiving desk', () => {
    for (const serial of [100000001, 123456789, 999999999]) expect(referenceIdPrefix(embeddedAwb(serial))).toBeNull();
  });
});

describe('tracking order and the pickup address', () => {
  test('a delivery outranks a failure, which outranks the steps before it', () => {
    expect(trackingRank('picked_up')).toBeLessThan(trackingRank('in_transit'));
    expect(trackingRank('out_for_delivery')).toBeLessThan(trackingRank('failed'));
    expect(trackingRank('failed')).toBeLessThan(trackingRank('delivered'));
  });

  test('PIN code and phone are checked as a warehouse\'s, named as the pickup form labels them', () => {
    expect(pickupAddressProblem({ postalCode: '560011', phone: '+91 98450 12345' }, 'IN')).toBeNull();
    expect(pickupAddressProblem({ postalCode: '012345', phone: '9845012345' }, 'IN')?.field).toBe('postalCode');
    expect(pickupAddressProblem({ postalCode: '560011', phone: '98450' }, 'IN')).toEqual({ field: 'phone', message: 'Phone must be a phone number in India (+91 and the number, or the number alone).' });
  });
});
