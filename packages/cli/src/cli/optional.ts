/**
 * Whether `import(name)` failed because `name` itself is not installed, and not because a module it
 * imports in turn is missing (that is a broken install, which should surface as it is).
 */
export function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${name}'`)
}
