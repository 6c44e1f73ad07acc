import type { Page } from "playwright-core";

/**
 * Cumulative layout shift as Chromium reports it: a PerformanceObserver of `layout-shift` entries
 * installed before the page's own scripts (an init script of the page), adding up the shifts not caused
 * by input (the `hadRecentInput` ones are excluded, as in the CLS metric). Call `watchLayoutShift`
 * before navigating, `layoutShift` after the page has settled.
 */
export async function watchLayoutShift(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const target = window as unknown as { layoutShiftTotal: number };
		target.layoutShiftTotal = 0;
		new PerformanceObserver((list) => {
			for (const entry of list.getEntries() as Array<
				PerformanceEntry & { value: number; hadRecentInput: boolean }
			>)
				if (!entry.hadRecentInput) target.layoutShiftTotal += entry.value;
		}).observe({ type: "layout-shift", buffered: true });
	});
}

/** The shifts added up since the page loaded. */
export function layoutShift(page: Page): Promise<number> {
	return page.evaluate(() => (window as unknown as { layoutShiftTotal?: number }).layoutShiftTotal ?? 0);
}
