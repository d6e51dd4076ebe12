/**
 * The root README's Performance figures, derived from a full run's RESULTS.md. The bench rewrites the
 * block after a full run (main.ts) and a test holds the README to the RESULTS.md beside it
 * (performance.test.ts), so the README quotes the latest run or the check fails. Derived from the
 * markdown, not from the run's objects, so that the check and the writer read the same thing.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The lines around the block in README.md; everything between them is the bench's. */
export const BLOCK_START = '<!-- bench:performance (written by `pnpm bench` from bench/RESULTS.md; do not edit) -->'
export const BLOCK_END = '<!-- /bench:performance -->'

type Row = Record<string, string>

/** The rows of the first table whose header has every one of `columns`, each keyed by its header. */
function tableWith(markdown: string, columns: readonly string[]): Row[] {
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length - 1; i++) {
    const head = cells(lines[i] ?? '')
    if (!head || !columns.every((column) => head.includes(column))) continue
    const rows: Row[] = []
    for (let j = i + 2; j < lines.length; j++) {
      const row = cells(lines[j] ?? '')
      if (!row) break
      rows.push(Object.fromEntries(head.map((name, k) => [name, row[k] ?? ''])))
    }
    return rows
  }
  throw new Error(`RESULTS.md has no table with the columns ${columns.join(', ')}: not a full run's report`)
}

/** A table line's cells, bold marks dropped; undefined for a line that is not one. */
function cells(line: string): string[] | undefined {
  const trimmed = line.trim()
  if (!trimmed.startsWith('|')) return undefined
  return trimmed
    .slice(1, trimmed.endsWith('|') ? -1 : undefined)
    .split('|')
    .map((cell) => cell.trim().replace(/^\*\*(.*)\*\*$/, '$1'))
}

/** One reading: the `column` of the row whose `key` column is `name`. */
function reading(rows: readonly Row[], key: string, name: string, column: string): string {
  const value = rows.find((row) => row[key] === name)?.[column]
  if (!value) throw new Error(`RESULTS.md has no "${column}" for ${name}: not a full run's report`)
  return value
}

/** A header line's value (`- Date: ...`). */
function headerLine(markdown: string, label: string): string {
  const match = new RegExp(`^- ${label}: (.+)$`, 'm').exec(markdown)
  if (!match?.[1]) throw new Error(`RESULTS.md has no "${label}" line`)
  return match[1]
}

/** The Performance block for the README: the run's date and machine, and ringhook's ratios in it. */
export function performanceBlock(results: string): string {
  if (results.includes('**Quick mode**'))
    throw new Error("RESULTS.md is a quick run's report: its numbers mean nothing")
  const date = headerLine(results, 'Date').slice(0, 10)
  const machine = /^- Node v(\d+)\.[^,]*, .*?, (\d+) CPUs/m.exec(results)
  if (!machine) throw new Error('RESULTS.md has no Node version and CPU count')
  const [, nodeMajor, cores] = machine

  const http = tableWith(results, ['framework', 'server', '× hand-rolled'])
  const perSecond = (server: string) => reading(http, 'server', server, '× hand-rolled')
  const micro = tableWith(results, ['contender', 'handle() ×'])
  const handleOver = (contender: string) => reading(micro, 'contender', contender, 'handle() ×')
  const rss = tableWith(results, ['server', 'peak RSS MB', 'RSS after one delivery MB'])
  const bundle = tableWith(results, ['app', 'gzipped KB'])
  const cold = tableWith(results, ['runtime, host: contender', '× hand-rolled'])
  const coldStart = (contender: string) => reading(cold, 'runtime, host: contender', contender, '× hand-rolled')

  const rows: [string, string, string][] = [
    ['what you compare', 'baseline', 'ringhook'],
    ['node:http, requests/s', 'the same server with a hand-rolled verify + dedup route', perSecond('node:ringhook')],
    ['Express 5, requests/s', 'the same', perSecond('express:ringhook')],
    ['Fastify 5, requests/s', 'the same', perSecond('fastify:ringhook')],
    ['Koa 3, requests/s', 'the same', perSecond('koa:ringhook')],
    ['Hono (Node), requests/s', 'the same', perSecond('hono:ringhook')],
    ['`receiver.fetch` (Node), requests/s', 'the same', perSecond('fetch:ringhook')],
    [
      '`receiver.handle()` in one process (verify, parse, validate, dedup, dispatch)',
      'Stripe `constructEvent` · octokit `verifyAndReceive` · standardwebhooks `verify`',
      [
        handleOver('stripe webhooks.constructEvent()'),
        handleOver('@octokit/webhooks verifyAndReceive()'),
        handleOver('standardwebhooks Webhook.verify()'),
      ].join(' · '),
    ],
    [
      'server memory under load (peak RSS, node:http)',
      'the hand-rolled route',
      reading(rss, 'server', 'node:ringhook', '× hand-rolled'),
    ],
    [
      'a Worker with one gesture handler, minified + gzipped',
      '',
      `${reading(bundle, 'app', 'ringhook', 'gzipped KB')} KB`,
    ],
    [
      'cold start to the first answer (Node · Bun · Deno)',
      'a hand-rolled route',
      [
        coldStart('node, node:http: ringhook `@ringhook/node`'),
        coldStart('bun, Bun.serve: ringhook `receiver.fetch`'),
        coldStart('deno, Deno.serve: ringhook `receiver.fetch`'),
      ].join(' · '),
    ],
  ]
  return [
    `What ringhook costs on top of your server, from the full \`pnpm bench\` of ${date} (${cores} cores, Node ${nodeMajor}).`,
    "Each figure is ringhook's reading over a baseline's from the same run: above 1× is faster for requests and",
    'operations a second, more memory for peak RSS and a slower start for cold start.',
    '',
    markdownTable(rows),
  ].join('\n')
}

/** A table padded as the README's others are, the last column right-aligned. */
function markdownTable(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, k) => Math.max(...rows.map((row) => (row[k] ?? '').length)))
  const last = widths.length - 1
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, k) => (k === last ? cell.padStart(widths[k] ?? 0) : cell.padEnd(widths[k] ?? 0))).join(' | ')} |`
  const rule = `| ${widths.map((width, k) => (k === last ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width))).join(' | ')} |`
  const [head, ...body] = rows
  return [line(head ?? []), rule, ...body.map(line)].join('\n')
}

/** Where the block sits in `readme`: just after the start marker's line, and at the end marker. */
function blockBounds(readme: string): { from: number; to: number } {
  const start = readme.indexOf(BLOCK_START)
  const end = readme.indexOf(BLOCK_END)
  if (start < 0 || end < start) throw new Error(`README.md has no ${BLOCK_START} ... ${BLOCK_END} block`)
  return { from: start + BLOCK_START.length + 1, to: end }
}

/** `readme` with the text between the markers replaced by `block`. */
export function withPerformanceBlock(readme: string, block: string): string {
  const { from, to } = blockBounds(readme)
  return `${readme.slice(0, from)}${block}\n${readme.slice(to)}`
}

/** The text between the markers, as `performanceBlock` gives it. */
export function currentPerformanceBlock(readme: string): string {
  const { from, to } = blockBounds(readme)
  return readme.slice(from, to).replace(/\n$/, '')
}

/**
 * After a full run wrote `resultsFile` (a bench's RESULTS.md), rewrites the Performance block of the
 * README.md of the repository it is in. Returns that README's path.
 */
export function rewriteReadmePerformance(resultsFile: string): string {
  const readmeFile = join(dirname(resultsFile), '..', 'README.md')
  const block = performanceBlock(readFileSync(resultsFile, 'utf8'))
  writeFileSync(readmeFile, withPerformanceBlock(readFileSync(readmeFile, 'utf8'), block))
  return readmeFile
}
