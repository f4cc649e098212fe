import type { Migration } from 'kysely/migration';
import * as initial from './2026_11_21_001_initial.ts';
import * as creditHistorySearch from './2026_11_21_002_credit_history_search.ts';
import * as requestCounts from './2026_11_21_003_request_counts.ts';
import * as signInHardening from './2026_11_22_004_sign_in_hardening.ts';
import * as ledgerExternalId from './2026_11_22_005_ledger_external_id.ts';
import * as valuation from './2026_11_22_007_valuation.ts';
import * as backgroundJobRuns from './2026_11_22_008_image_store.ts';
import * as webhooksAnalytics from './2026_11_22_009_webhooks_analytics.ts';
import * as creditExpiry from './2026_11_22_009a_credit_expiry.ts';
import * as specDepartures from './2026_11_22_011_spec_departures.ts';
import * as analyticsRollup from './2026_11_22_012_analytics_rollup.ts';
import * as quoteMatchKeys from './2026_11_22_013_quote_match_keys.ts';
import * as cancelledRequests from './2026_11_25_014_cancelled_requests.ts';
import * as offersDeadlines from './2026_11_25_015_offers_deadlines.ts';
import * as risk from './2026_11_25_016_risk.ts';
import * as shipments from './2026_11_25_017_shipments.ts';
import * as receive from './2026_11_25_018_receive.ts';
import * as whatsapp from './2026_11_25_019_whatsapp.ts';
import * as privacy from './2026_11_25_021_privacy.ts';
import * as privacyRecords from './2026_11_25_030_privacy_records.ts';
import * as termsAgreements from './2026_11_25_031_terms_agreements.ts';
import * as shopCustomerAddresses from './2026_11_25_032_shop_customer_addresses.ts';
import * as returnShipments from './2026_11_25_033_return_shipments.ts';
import * as rateLimitWindows from './2026_11_29_034_rate_limit_windows.ts';

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_001_initial': initial,
  '2026_11_21_002_credit_history_search': creditHistorySearch,
  '2026_11_21_003_request_counts': requestCounts,
  '2026_11_22_004_sign_in_hardening': signInHardening,
  '2026_11_22_005_ledger_external_id': ledgerExternalId,
  '2026_11_22_007_valuation': valuation,
  '2026_11_22_008_image_store': backgroundJobRuns,
  '2026_11_22_009_webhooks_analytics': webhooksAnalytics,
  '2026_11_22_009a_credit_expiry': creditExpiry,
  '2026_11_22_011_spec_departures': specDepartures,
  '2026_11_22_012_analytics_rollup': analyticsRollup,
  '2026_11_22_013_quote_match_keys': quoteMatchKeys,
  '2026_11_25_014_cancelled_requests': cancelledRequests,
  '2026_11_25_015_offers_deadlines': offersDeadlines,
  '2026_11_25_016_risk': risk,
  '2026_11_25_017_shipments': shipments,
  '2026_11_25_018_receive': receive,
  '2026_11_25_019_whatsapp': whatsapp,
  '2026_11_25_021_privacy': privacy,
  '2026_11_25_030_privacy_records': privacyRecords,
  '2026_11_25_031_terms_agreements': termsAgreements,
  '2026_11_25_032_shop_customer_addresses': shopCustomerAddresses,
  '2026_11_25_033_return_shipments': returnShipments,
  '2026_11_29_034_rate_limit_windows': rateLimitWindows,
};
