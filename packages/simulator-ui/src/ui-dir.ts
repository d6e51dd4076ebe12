import { fileURLToPath } from 'node:url'

/**
 * Absolute path of the built page (`index.html` and `assets/`).
 * This module sits one level below the package root both as source (`src/`) and built (`dist/`),
 * so the same relative URL finds `dist/ui` from either.
 */
export const UI_DIR: string = fileURLToPath(new URL('../dist/ui', import.meta.url))
