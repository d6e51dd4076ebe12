/**
 * A Node built-in module, when the runtime has one, found at run time through
 * `process.getBuiltinModule` (Node >= 20.16, Bun, Deno 2): the built output imports no `node:`
 * module, so it loads unchanged on Workers and in browsers. `probe` names a function the module
 * must have, so a stub or an older shim is treated as absent.
 */
export function builtin<T>(id: string, probe: keyof T): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  try {
    const mod = proc?.getBuiltinModule?.(id) as T | undefined
    return typeof mod?.[probe] === 'function' ? mod : undefined
  } catch {
    return undefined
  }
}
