import type { components } from '@boundbook/types';

type StateCode = components['schemas']['StateCode'];

const CODES = {
  AL: 1, AK: 1, AZ: 1, AR: 1, CA: 1, CO: 1, CT: 1, DE: 1, FL: 1, GA: 1, HI: 1, ID: 1, IL: 1,
  IN: 1, IA: 1, KS: 1, KY: 1, LA: 1, ME: 1, MD: 1, MA: 1, MI: 1, MN: 1, MS: 1, MO: 1, MT: 1,
  NE: 1, NV: 1, NH: 1, NJ: 1, NM: 1, NY: 1, NC: 1, ND: 1, OH: 1, OK: 1, OR: 1, PA: 1, RI: 1,
  SC: 1, SD: 1, TN: 1, TX: 1, UT: 1, VT: 1, VA: 1, WA: 1, WV: 1, WI: 1, WY: 1, DC: 1, PR: 1,
  GU: 1, VI: 1, AS: 1, MP: 1,
} as const satisfies Record<StateCode, 1>;

/**
 * The contract's `StateCode` values: USPS codes of the 50 states, DC, PR, GU, VI, AS and MP, in
 * capitals. Typed against the generated contract, so a code added to or removed from
 * `openapi.yaml` fails the type check here.
 *
 * @example
 * ```ts
 * STATE_CODES.includes('IL'); // true
 * ```
 */
export const STATE_CODES: readonly StateCode[] = Object.keys(CODES) as StateCode[];
