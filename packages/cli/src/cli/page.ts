import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ExtraHandler } from '@ringhook/simulator'
import { isMissing } from './optional.js'

type PageModule = typeof import('@ringhook/simulator-ui')

/** The simulator's page, or why it is not served; `handler` answers the page's paths either way. */
export interface Page {
  handler: ExtraHandler
  problem: string | null
}

const PACKAGE = '@ringhook/simulator-ui'

const PAGE_MISSING = `${PACKAGE} is not installed (it is optional): npm install -D ${PACKAGE}, then restart`

/**
 * Loads the page from `@ringhook/simulator-ui` only when the simulator serves it. The package is
 * optional: without it the simulator runs as well, and the page's address says what to install.
 */
export async function loadPage(
  importPage: () => Promise<PageModule> = () => import('@ringhook/simulator-ui'),
): Promise<Page> {
  let ui: PageModule
  try {
    ui = await importPage()
  } catch (error) {
    const problem = isMissing(error, PACKAGE)
      ? PAGE_MISSING
      : `${PACKAGE} could not be loaded: ${(error as Error).message}`
    return { handler: explain(problem), problem }
  }
  // Its own handler answers 503 with the build command when the page is not built.
  const built = existsSync(join(ui.UI_DIR, 'index.html'))
  const problem = built ? null : `the page of ${PACKAGE} is not built: run \`pnpm --filter ${PACKAGE} build\``
  return { handler: ui.createUiHandler(), problem }
}

/** Answers the page's own paths (`/`, `/index.html`, `/ui/...`) with why there is no page. */
function explain(problem: string): ExtraHandler {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://sim.invalid').pathname
    if (path !== '/' && path !== '/index.html' && path !== '/ui' && !path.startsWith('/ui/')) return false
    response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
    response.end(`The simulator runs, but has no web page: ${problem}.\nThe API and the control API (/_sim/) work.\n`)
    return true
  }
}
