export { createUiHandler, UI_BASE_PATH, type UiHandler, type UiHandlerOptions } from './handler.js'
export { UI_DIR } from './ui-dir.js'
