/**
 * Captured deliveries on your desk: the rotating JSON Lines file sink for `createCapture`, reading
 * capture files back with a filter, and replaying them, signed again, to any receiver.
 *
 * @packageDocumentation
 * @document ../README.md
 */

// The filter every capture reader shares (file, Redis stream, Postgres table), from core: exported here as before.
export { type CaptureFilter, matchesCapture } from '@ringhook/core/capture'
export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_FILES,
  type FileSinkOptions,
  fileSink,
  unauthenticatedPath,
} from './file-sink.js'
export { CaptureFileError, type CaptureLines, parseCaptures, readCaptures, type SkippedCaptureLine } from './read.js'
export {
  mergePatch,
  type ReplayOptions,
  type ReplayRequest,
  type ReplayResult,
  type ReplaySummary,
  replay,
} from './replay.js'
