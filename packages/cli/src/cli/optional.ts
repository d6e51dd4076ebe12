/**
 * Whether `import(name)` failed because `name` itself is not installed, and not because a module it
 * imports in turn is missing (that is a broken install, which should surface as it is).
 */
export function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${name}'`)
}

/**
 * What to say when `command` cannot load `name`: what to install beside the CLI (`install`), and the
 * npx line that brings the CLI with it (and with `alongside`, packages it needs too).
 */
export function missingPeer(command: string, name: string, install: string[], alongside: string[] = []): string {
  const npx = ['@ringhook/cli', ...alongside, ...install].map((pkg) => `-p ${pkg}`).join(' ')
  return (
    `"ringhook ${command}" needs ${name}: install ${install.join(' and ')} beside @ringhook/cli ` +
    `(npm install ${install.join(' ')}), or run npx ${npx} ringhook ${command} ...`
  )
}
