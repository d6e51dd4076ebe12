/**
 * The simulator's web page, built, and a handler that serves it: what `ringhook simulate` mounts.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { createUiHandler, UI_BASE_PATH, type UiHandler, type UiHandlerOptions } from './handler.js'
export { TOKEN_META } from './token-meta.js'
export { UI_DIR } from './ui-dir.js'
