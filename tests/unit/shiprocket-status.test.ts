import { describe, expect, test } from 'bun:test';
import { readableLabel, SHIPMENT_STATUS_IDS, SHIPMENT_STATUS_LABELS, shiprocketStatus, shiprocketTime } from '#api/integrations/carriers/shiprocket-status.ts';
import { TRACKING_STATUSES } from '#api/integrations/carriers/types.ts';

describe("Shiprocket's shipment statuses as our tracking steps", () => {
  test.each([
    [42, 'PICKED UP', 'picked_up'],
    [6, 'SHIPPED', 'in_transit'],
    [18, 'IN TRANSIT', 'in_transit'],
    [38, 'REACHED AT DESTINATION HUB', 'in_transit'],
    [17, 'OUT FOR DELIVERY', 'out_for_delivery'],
    [7, 'DELIVERED', 'delivered'],
    [12, 'LOST', 'failed'],
    [25, 'DAMAGED', 'failed'],
    [9, 'RTO INITIATED', 'failed'],
    [10, 'RTO DELIVERED', 'failed'],
  ] as const)('id %p and label %p are %p, each on its own', (id, label, step) => {
    expect(shiprocketStatus(id, label)).toBe(step);
    expect(shiprocketStatus(String(id), null)).toBe(step);
    expect(shiprocketStatus(undefined, label)).toBe(step);
    expect(shiprocketStatus('NA', label.toLowerCase().replace(/ /g, '_'))).toBe(step);
  });

  test.each([
    [1, 'AWB ASSIGNED'],
    [3, 'PICKUP SCHEDULED'],
    [19, 'OUT FOR PICKUP'],
    [20, 'PICKUP EXCEPTION'],
    [13, 'PICKUP ERROR'],
    [21, 'UNDELIVERED'],
    [5, 'MANIFEST GENERATED'],
  ] as const)('%p %p is not one of our steps: ignored', (id, label) => {
    expect(shiprocketStatus(id, label)).toBeNull();
    expect(shiprocketStatus(undefined, label)).toBeNull();
  });

  test('the id wins over the label; unknown ids fall back to the label; nothing usable is null', () => {
    expect(shiprocketStatus(7, 'IN TRANSIT')).toBe('delivered');
    expect(shiprocketStatus(999, 'DELIVERED')).toBe('delivered');
    expect(shiprocketStatus('NA', 'NA')).toBeNull();
    expect(shiprocketStatus(null, '')).toBeNull();
    expect(shiprocketStatus({}, 42)).toBeNull();
  });

  test('every entry of both tables is one of the five steps', () => {
    for (const step of [...Object.values(SHIPMENT_STATUS_IDS), ...Object.values(SHIPMENT_STATUS_LABELS)]) expect(TRACKING_STATUSES).toContain(step);
    expect(new Set(Object.values(SHIPMENT_STATUS_IDS))).toEqual(new Set(TRACKING_STATUSES));
  });

  test('labels read as sentences on a timeline', () => {
    expect(readableLabel('OUT FOR DELIVERY')).toBe('Out for delivery');
    expect(readableLabel('REACHED_AT_DESTINATION_HUB')).toBe('Reached at destination hub');
    expect(readableLabel('NA')).toBeNull();
    expect(readableLabel(7)).toBeNull();
  });
});

describe("Shiprocket's times (India time, no offset)", () => {
  test('both shapes are read as India time', () => {
    expect(shiprocketTime('2023-05-19 11:59:16')).toEqual(new Date('2023-05-19T06:29:16Z'));
    expect(shiprocketTime('23 05 2023 11:43:52')).toEqual(new Date('2023-05-23T06:13:52Z'));
    expect(shiprocketTime('2022-07-19 11:37')).toEqual(new Date('2022-07-19T06:07:00Z'));
  });

  test('anything else is null, also dates that do not exist', () => {
    for (const bad of ['', 'NA', '2023-02-30 10:00:00', '2023-13-01 10:00:00', '2023-05-19 24:00:00', '19/05/2023', 20230519, null]) {
      expect(shiprocketTime(bad)).toBeNull();
    }
  });
});
