/**
 * The service's webhook signature, by hand: sign a body as the service does, verify one outside a
 * receiver, the header names, and the HMAC engine this runtime uses. A receiver does all of this
 * itself; apps need this entry for scripts, tests and diagnostics.
 *
 * @packageDocumentation
 */
/** The HMAC engine this runtime uses (node:crypto or Web Crypto): for runtime diagnostics and tests. */
export { type HmacEngine, hmacEngine, webCryptoHmac } from './crypto/hmac.js'
export type { SecretResolver } from './receiver/options.js'
export { SIGNATURE_HEADER, SIGNATURE_PREFIX, TIMESTAMP_HEADER } from './signature/headers.js'
export { type SignedHeaders, type SignOptions, signWebhook } from './signature/sign.js'
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyFailureReason,
  type VerifyOptions,
  type VerifyResult,
  verifyWebhook,
} from './signature/verify.js'
