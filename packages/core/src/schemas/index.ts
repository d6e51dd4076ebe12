export * from './api.js'
export * from './events.js'
export * from './text.js'
export * from './vibe.js'
