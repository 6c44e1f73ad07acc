import type { Page } from "playwright-core";

/** One layout shift: its score and the elements that moved (tag, id and classes; top before → after). */
export interface Shift {
	value: number;
	sources: string[];
}

/** What the init script keeps on `window`. */
interface ShiftWatch {
	shifts: Shift[];
	/** Adds the entries queued but not yet delivered to the observer's callback. */
	take: () => void;
}

/**
 * Cumulative layout shift as Chromium reports it: a PerformanceObserver of `layout-shift` entries
 * installed before the page's own scripts (an init script of the page), keeping the shifts not caused
 * by input (the `hadRecentInput` ones are excluded, as in the CLS metric). Call `watchLayoutShift`
 * before navigating, `layoutShift` after the page has settled. Each new document starts from 0.
 */
export async function watchLayoutShift(page: Page): Promise<void> {
	await page.addInitScript(() => {
		interface LayoutShiftEntry extends PerformanceEntry {
			value: number;
			hadRecentInput: boolean;
			sources?: ReadonlyArray<{
				node: Node | null;
				previousRect: DOMRectReadOnly;
				currentRect: DOMRectReadOnly;
			}>;
		}
		const describe = (node: Node | null): string => {
			if (!(node instanceof Element)) return node ? node.nodeName.toLowerCase() : "(removed)";
			const id = node.id ? `#${node.id}` : "";
			return `${node.tagName.toLowerCase()}${id}${[...node.classList].map((name) => `.${name}`).join("")}`;
		};
		const shifts: Shift[] = [];
		const add = (entries: PerformanceEntryList) => {
			for (const entry of entries as LayoutShiftEntry[]) {
				if (entry.hadRecentInput) continue;
				shifts.push({
					value: entry.value,
					sources: (entry.sources ?? []).map(
						({ node, previousRect, currentRect }) =>
							`${describe(node)} ${Math.round(previousRect.y)}→${Math.round(currentRect.y)}`,
					),
				});
			}
		};
		const observer = new PerformanceObserver((list) => add(list.getEntries()));
		observer.observe({ type: "layout-shift", buffered: true });
		const watch: ShiftWatch = { shifts, take: () => add(observer.takeRecords()) };
		(window as unknown as { layoutShiftWatch: ShiftWatch }).layoutShiftWatch = watch;
	});
}

/** Each shift since the document loaded, with what moved (none where `watchLayoutShift` was not called). */
export function layoutShifts(page: Page): Promise<Shift[]> {
	return page.evaluate(() => {
		const watch = (window as unknown as { layoutShiftWatch?: ShiftWatch }).layoutShiftWatch;
		if (!watch) return [];
		watch.take();
		return watch.shifts;
	});
}

/** The shifts added up since the document loaded: the page's cumulative layout shift. */
export async function layoutShift(page: Page): Promise<number> {
	return (await layoutShifts(page)).reduce((total, shift) => total + shift.value, 0);
}
