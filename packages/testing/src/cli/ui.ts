import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ExtraHandler } from '../simulator/config.js'

interface UiModule {
  createUiHandler?: () => ExtraHandler
  UI_DIR?: string
}

/**
 * The simulator's web page from `@ringhook/simulator-ui`, when it is installed and built; the
 * simulator runs without it otherwise. Loaded by name at run time so neither package needs the
 * other to build.
 */
export async function loadUiHandler(): Promise<ExtraHandler | undefined> {
  const specifier = '@ringhook/simulator-ui'
  try {
    const ui = (await import(specifier)) as UiModule
    if (!ui.createUiHandler || !ui.UI_DIR || !existsSync(join(ui.UI_DIR, 'index.html'))) return undefined
    return ui.createUiHandler()
  } catch {
    return undefined
  }
}
