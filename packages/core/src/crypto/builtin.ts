/**
 * A Node built-in module, on Node, found at run time through `process.getBuiltinModule`
 * (Node >= 20.16): the built output imports no `node:` module, so it loads unchanged on Workers
 * and in browsers. `probe` names a function the module must have, so a stub or an older shim is
 * treated as absent.
 *
 * Bun and Deno offer the same call, but there Web Crypto is native and loading their node:crypto
 * layer costs more than it saves: ~43 ms of a Deno cold start and ~6 ms of Bun's (bench/RESULTS.md,
 * Deployment), so they get Web Crypto, like Workers.
 */
export function builtin<T>(id: string, probe: keyof T): T | undefined {
  if ('Deno' in globalThis || 'Bun' in globalThis) return undefined
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  try {
    const mod = proc?.getBuiltinModule?.(id) as T | undefined
    return typeof mod?.[probe] === 'function' ? mod : undefined
  } catch {
    return undefined
  }
}
