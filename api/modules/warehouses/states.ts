/**
 * The states an address names, as a person (and a carrier) writes them: a shop's export and Shopify
 * give a province code ('KA'), the pickup form and the warehouse form take the name ('Karnataka').
 * Plain TypeScript, no import.
 */

/** India: Shopify's zone codes (its `provinceCode`), with the ISO 3166-2 codes where they differ (CT, OD, TG, UT, DH). */
const IN: Record<string, string> = {
  AN: 'Andaman and Nicobar Islands', AP: 'Andhra Pradesh', AR: 'Arunachal Pradesh', AS: 'Assam', BR: 'Bihar',
  CH: 'Chandigarh', CG: 'Chhattisgarh', CT: 'Chhattisgarh', DN: 'Dadra and Nagar Haveli', DD: 'Daman and Diu',
  DH: 'Dadra and Nagar Haveli and Daman and Diu', DL: 'Delhi', GA: 'Goa', GJ: 'Gujarat', HR: 'Haryana',
  HP: 'Himachal Pradesh', JK: 'Jammu and Kashmir', JH: 'Jharkhand', KA: 'Karnataka', KL: 'Kerala', LA: 'Ladakh',
  LD: 'Lakshadweep', MP: 'Madhya Pradesh', MH: 'Maharashtra', MN: 'Manipur', ML: 'Meghalaya', MZ: 'Mizoram',
  NL: 'Nagaland', OR: 'Odisha', OD: 'Odisha', PY: 'Puducherry', PB: 'Punjab', RJ: 'Rajasthan', SK: 'Sikkim',
  TN: 'Tamil Nadu', TS: 'Telangana', TG: 'Telangana', TR: 'Tripura', UP: 'Uttar Pradesh', UK: 'Uttarakhand',
  UT: 'Uttarakhand', WB: 'West Bengal',
};

/** The United States: USPS codes, the states and DC. */
const US: Record<string, string> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut',
  DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois',
  IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland',
  MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York',
  NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
  RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah',
  VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
};

const STATES: Record<string, Record<string, string>> = { IN, US };

/**
 * The state's name for a province code of a country (ISO 3166-1 alpha-2): 'KA' in IN → 'Karnataka',
 * also written 'IN-KA' or 'ka'. A code we do not know (or a country without a list) is kept as
 * written, which is still better than no state; null for an empty code.
 */
export function stateName(countryCode: string | null | undefined, provinceCode: string | null | undefined): string | null {
  const code = provinceCode?.trim();
  if (!code) return null;
  const country = countryCode?.trim().toUpperCase() ?? '';
  const upper = code.toUpperCase();
  const bare = country && upper.startsWith(`${country}-`) ? upper.slice(country.length + 1) : upper;
  const names = Object.hasOwn(STATES, country) ? STATES[country]! : {};
  return Object.hasOwn(names, bare) ? names[bare]! : code;
}
