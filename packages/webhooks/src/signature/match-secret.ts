/**
 * Index of the first secret whose HMAC-SHA256 of `payload` equals the digest given as 64
 * lowercase hex digits, compared in constant time; -1 when none does. Each build has its own
 * (node:crypto or Web Crypto); everything above the digest is shared.
 */
export type MatchSecret = (secrets: readonly string[], payload: string | Uint8Array, digestHex: string) => number | Promise<number>;
