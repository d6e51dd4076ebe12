import type { Logger } from '../logger.js'

/** A host where each request may land in another instance, and the store that works across them there. */
interface Host {
  name: string
  store: string
}

// Each platform's own documented marker. Netlify's functions run on Lambda, and say so too: Netlify
// is asked first, since the advice differs.
function detectHost(): Host | undefined {
  const env = environment()
  if (env.NETLIFY === 'true' || 'Netlify' in globalThis)
    return { name: 'Netlify', store: 'createRedisStore (@ringhook/redis) or createPostgresStore (@ringhook/postgres)' }
  if (env.VERCEL === '1')
    return { name: 'Vercel', store: 'createRedisStore (@ringhook/redis) or createPostgresStore (@ringhook/postgres)' }
  if (env.AWS_LAMBDA_FUNCTION_NAME) return { name: 'AWS Lambda', store: 'createDynamoDbStore (@ringhook/dynamodb)' }
  if ((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers')
    return { name: 'Cloudflare Workers', store: 'the Durable Object store of @ringhook/cloudflare' }
  return undefined
}

/**
 * The environment's variables, or none where reading them is not allowed: Deno without `--allow-env`
 * throws on `process.env.NAME`, and a delivery must not fail for a warning.
 */
function environment(): Record<string, string | undefined> {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  if (!env) return {}
  try {
    return { NETLIFY: env.NETLIFY, VERCEL: env.VERCEL, AWS_LAMBDA_FUNCTION_NAME: env.AWS_LAMBDA_FUNCTION_NAME }
  } catch {
    return {}
  }
}

/**
 * For a receiver left on the default memory store: a function to call at each delivery that, at the
 * first, warns once when the host runs every request in whatever instance it likes, where memory
 * catches a retry only when it lands in the same one. Looked up then rather than at creation: a
 * module imported at build time may not know yet where it will run.
 */
export function perInstanceDedupWarning(logger: Logger): () => void {
  let pending = true
  return () => {
    if (!pending) return
    pending = false
    const host = detectHost()
    if (!host) return
    logger.warn(
      { code: 'per_instance_dedup', host: host.name },
      `Deduplication is in this instance's memory, but ${host.name} may run each request in another instance: a retry that lands elsewhere is handled again. Pass \`store\`: ${host.store}.`,
    )
  }
}
