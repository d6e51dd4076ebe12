/**
 * Captured deliveries on your desk: the rotating JSON Lines file sink for `createCapture`, reading
 * capture files back with a filter, and replaying them, signed again, to any receiver.
 *
 * @packageDocumentation
 * @document ../README.md
 */
export { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, type FileSinkOptions, fileSink } from './file-sink.js'
export { CaptureFileError, type CaptureFilter, matchesCapture, parseCaptures, readCaptures } from './read.js'
export {
  mergePatch,
  type ReplayOptions,
  type ReplayRequest,
  type ReplayResult,
  type ReplaySummary,
  replay,
} from './replay.js'
