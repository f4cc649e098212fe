import type { Timestamp } from '../columns.ts';

/** A shop customer's default address from the shop's export (migration 032), for the pickup form (issue 27). */
export interface ShopCustomerAddressesTable {
  customer_id: string;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  /** the state's name ('Karnataka'), made from the export's province code */
  state: string | null;
  postal_code: string | null;
  /** ISO 3166-1 alpha-2, as the export gives it */
  country_code: string | null;
  phone: string | null;
  updated_at: Timestamp;
}
