/**
 * The platform's published per-message list rates in USD, effective January 1, 2026, by market as
 * its rate card names them, each market with the ISO 3166 regions it covers (the regional "rest of"
 * groups with their members). Sources and what was derived: docs/pricing.md.
 * Columns: marketing, utility, authentication, authentication-international (null where the market has none).
 */
type Row = [marketing: string, utility: string, authentication: string, authenticationInternational: string | null];

export const LIST_RATES_EFFECTIVE = '2026-01-01';

/** `regions`: ISO 3166 codes, separated by spaces. */
export const LIST_RATES: { market: string; regions: string; rates: Row }[] = [
  { market: 'Argentina', regions: 'AR', rates: ['0.0618', '0.0260', '0.0260', null] },
  { market: 'Brazil', regions: 'BR', rates: ['0.0625', '0.0068', '0.0068', null] },
  { market: 'Chile', regions: 'CL', rates: ['0.0889', '0.0200', '0.0200', null] },
  { market: 'Colombia', regions: 'CO', rates: ['0.0125', '0.0008', '0.0008', null] },
  { market: 'Egypt', regions: 'EG', rates: ['0.0644', '0.0036', '0.0036', '0.0650'] },
  { market: 'France', regions: 'FR', rates: ['0.0859', '0.0300', '0.0300', null] },
  { market: 'Germany', regions: 'DE', rates: ['0.1365', '0.0550', '0.0550', null] },
  { market: 'India', regions: 'IN', rates: ['0.0118', '0.0014', '0.0014', '0.0280'] },
  { market: 'Indonesia', regions: 'ID', rates: ['0.0411', '0.0250', '0.0250', '0.1360'] },
  { market: 'Israel', regions: 'IL', rates: ['0.0353', '0.0053', '0.0053', null] },
  { market: 'Italy', regions: 'IT', rates: ['0.0691', '0.0300', '0.0300', null] },
  { market: 'Malaysia', regions: 'MY', rates: ['0.0860', '0.0140', '0.0140', '0.0418'] },
  { market: 'Mexico', regions: 'MX', rates: ['0.0305', '0.0085', '0.0085', null] },
  { market: 'Netherlands', regions: 'NL', rates: ['0.1597', '0.0500', '0.0500', null] },
  { market: 'Nigeria', regions: 'NG', rates: ['0.0516', '0.0067', '0.0067', '0.0750'] },
  // eslint-disable-next-line no-restricted-syntax -- Pakistan's ISO code, not a table key
  { market: 'Pakistan', regions: 'PK', rates: ['0.0473', '0.0054', '0.0054', '0.0750'] },
  { market: 'Peru', regions: 'PE', rates: ['0.0703', '0.0200', '0.0200', null] },
  { market: 'Russia', regions: 'RU', rates: ['0.0802', '0.0400', '0.0400', null] },
  { market: 'Saudi Arabia', regions: 'SA', rates: ['0.0455', '0.0107', '0.0107', '0.0598'] },
  { market: 'South Africa', regions: 'ZA', rates: ['0.0379', '0.0076', '0.0076', '0.0200'] },
  { market: 'Spain', regions: 'ES', rates: ['0.0615', '0.0200', '0.0200', null] },
  { market: 'Turkey', regions: 'TR', rates: ['0.0109', '0.0053', '0.0053', null] },
  { market: 'United Arab Emirates', regions: 'AE', rates: ['0.0499', '0.0157', '0.0157', '0.0510'] },
  { market: 'United Kingdom', regions: 'GB', rates: ['0.0529', '0.0220', '0.0220', null] },
  { market: 'North America', regions: 'US CA', rates: ['0.0250', '0.0034', '0.0034', null] },
  {
    market: 'Rest of Africa',
    regions: 'DZ AO BJ BW BF BI CM TD CG ER ET GA GM GH GW CI KE LS LR LY MG MW ML MR MZ NA NE RW SN SL SO SS SD SZ TZ TG TN UG ZM ZW',
    rates: ['0.0225', '0.0040', '0.0040', null],
  },
  { market: 'Rest of Asia Pacific', regions: 'AF AU KH CN JP LA MN NZ PG PH SG TW TJ TH TM UZ VN', rates: ['0.0732', '0.0113', '0.0113', null] },
  {
    market: 'Rest of Central & Eastern Europe',
    regions: 'AL AM AZ BY BG HR CZ GE GR LV LT MD MK RS SK SI',
    rates: ['0.0860', '0.0212', '0.0212', null],
  },
  { market: 'Rest of Latin America', regions: 'BO CR DO EC SV GT HT HN JM NI PA PY PR UY VE', rates: ['0.0740', '0.0113', '0.0113', null] },
  { market: 'Rest of Middle East', regions: 'BH JO LB YE', rates: ['0.0341', '0.0091', '0.0091', null] },
  { market: 'Rest of Western Europe', regions: 'AT BE DK FI IE NO PT SE CH', rates: ['0.0592', '0.0171', '0.0171', null] },
];

/** "Other": every market the card does not name. */
export const OTHER_RATES: Row = ['0.0604', '0.0077', '0.0077', null];
