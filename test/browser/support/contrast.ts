import type { Page } from 'playwright-core'

export interface LowContrast {
  text: string
  ratio: number
}

/**
 * Every visible piece of text on the page whose colour has less than `minimum` contrast with the
 * background behind it (WCAG 2 relative luminance; the first opaque background up the tree).
 */
export function lowContrast(page: Page, minimum = 4.5): Promise<LowContrast[]> {
  return page.evaluate((min) => {
    const channels = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number)
    const luminance = (css: string) => {
      const [r = 0, g = 0, b = 0] = channels(css).map((value) => {
        const c = value / 255
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r + 0.7152 * g + 0.0722 * b
    }
    const background = (element: Element | null): string => {
      for (let node = element; node; node = node.parentElement) {
        const color = getComputedStyle(node).backgroundColor
        if (channels(color)[3] !== 0) return color
      }
      return 'rgb(255, 255, 255)'
    }
    const found: { text: string; ratio: number }[] = []
    for (const element of document.querySelectorAll('body *')) {
      const text = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent?.trim())
        .join('')
      const box = element.getBoundingClientRect()
      if (!text || box.width === 0 || box.height === 0) continue
      const [light, dark] = [luminance(getComputedStyle(element).color), luminance(background(element))].sort(
        (a, b) => b - a,
      ) as [number, number]
      const ratio = (light + 0.05) / (dark + 0.05)
      if (ratio < min) found.push({ text, ratio: Math.round(ratio * 100) / 100 })
    }
    return found
  }, minimum)
}
