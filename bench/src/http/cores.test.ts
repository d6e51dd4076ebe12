import { describe, expect, it } from 'vitest'
import { expandCpuList } from './cores.js'

describe('expandCpuList', () => {
  it('reads the affinity list as /proc writes it', () => {
    expect(expandCpuList('0-1')).toEqual([0, 1])
    expect(expandCpuList('4')).toEqual([4])
    expect(expandCpuList('0-2,5,8-9')).toEqual([0, 1, 2, 5, 8, 9])
  })

  it('skips what is not a CPU number', () => {
    expect(expandCpuList('x,3')).toEqual([3])
    expect(expandCpuList('')).toEqual([])
  })
})
