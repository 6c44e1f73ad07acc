import type { ReactNode } from "react";

/**
 * The horizontal scroller around a wide table. It is a named region in the tab order so a keyboard can
 * scroll it on a narrow screen whatever the table holds (axe's scrollable-region-focusable: a table whose
 * rows have no button or link could not be scrolled without a pointer).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
	return (
		<div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
			{children}
		</div>
	);
}
