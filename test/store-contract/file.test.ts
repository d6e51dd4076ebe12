// The file capture sink under the capture sink contract.
import { fileCaptures } from './backends/file.js'
import { captureSink } from './register.js'

captureSink(fileCaptures)
