#!/usr/bin/env node
import { runJobsCli } from './cli.js'

process.exitCode = await runJobsCli(process.argv.slice(2))
