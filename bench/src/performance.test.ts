// The root README's Performance figures are the latest full run's: the block between its markers must be
// what bench/RESULTS.md gives, so a run that rewrites RESULTS.md without the README (or a hand edit of
// either) fails here instead of leaving the README quoting an older run.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  BLOCK_END,
  BLOCK_START,
  currentPerformanceBlock,
  performanceBlock,
  withPerformanceBlock,
} from './performance.js'

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
const results = read('../RESULTS.md')

describe('the README Performance block', () => {
  it('is what bench/RESULTS.md gives (after a full run; else `pnpm --dir bench readme`)', () => {
    expect(currentPerformanceBlock(read('../../README.md'))).toBe(performanceBlock(results))
  })

  it("quotes the run's date and the readings of its tables", () => {
    const block = performanceBlock(results)
    const date = /^- Date: (\d{4}-\d{2}-\d{2})/m.exec(results)?.[1]
    expect(date).toBeDefined()
    expect(block).toContain(`\`pnpm bench\` of ${date} (`)
    // Each row's figure is the one its table holds, here the bundle's gzipped size and node:http's req/s.
    const bundle = /^\| \*\*ringhook\*\* \| [\d.]+ \| ([\d.]+) \|/m.exec(results)?.[1]
    expect(block).toMatch(new RegExp(`\\| +${bundle} KB \\|`))
    const nodeHttp = /^\| node:http \| node:ringhook \| [\d,]+ \| [\d,–]+ \| ([\d.]+×) \|/m.exec(results)?.[1]
    expect(block).toMatch(new RegExp(`^\\| node:http, requests/s .*\\| +${nodeHttp} \\|$`, 'm'))
  })

  it('refuses a report that lacks a section, or a quick one, rather than quoting it', () => {
    const withoutBundle = results.replace(/\| app \| minified KB \| gzipped KB \|/, '| app | minified KB |')
    expect(() => performanceBlock(withoutBundle)).toThrow(/gzipped KB/)
    const quick = results.replace('- Date:', '> **Quick mode**: a smoke run.\n\n- Date:')
    expect(() => performanceBlock(quick)).toThrow(/quick run/)
  })

  it('replaces only the text between the markers', () => {
    const readme = `# title\n\nbefore\n${BLOCK_START}\nold figures\n${BLOCK_END}\n\nafter\n`
    const next = withPerformanceBlock(readme, 'new figures')
    expect(next).toBe(`# title\n\nbefore\n${BLOCK_START}\nnew figures\n${BLOCK_END}\n\nafter\n`)
    expect(currentPerformanceBlock(next)).toBe('new figures')
    expect(() => withPerformanceBlock('# no markers\n', 'x')).toThrow(/bench:performance/)
  })
})
