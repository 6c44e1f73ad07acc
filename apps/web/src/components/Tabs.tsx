/**
 * Tabs following the WAI-ARIA tabs pattern: one tab stop for the whole tab list (roving tabindex), arrow
 * keys move between tabs and select them (automatic activation), Home and End jump to the ends.
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

export interface TabItem {
	id: string;
	label: ReactNode;
	content: ReactNode;
}

export interface TabsProps {
	/** Accessible name of the tab list. */
	label: string;
	items: TabItem[];
	/** Controlled selection (an item id). */
	selected?: string;
	defaultSelected?: string;
	onSelect?: (id: string) => void;
	className?: string;
}

/** The index a key press moves to from `current` among `count` tabs, or undefined for other keys. */
export function nextTabIndex(key: string, current: number, count: number): number | undefined {
	if (count === 0) return undefined;
	switch (key) {
		case "ArrowRight":
		case "ArrowDown":
			return (current + 1) % count;
		case "ArrowLeft":
		case "ArrowUp":
			return (current - 1 + count) % count;
		case "Home":
			return 0;
		case "End":
			return count - 1;
		default:
			return undefined;
	}
}

export function Tabs({ label, items, selected, defaultSelected, onSelect, className }: TabsProps) {
	const baseId = useId();
	const [uncontrolled, setUncontrolled] = useState(defaultSelected ?? items[0]?.id);
	const requested = selected ?? uncontrolled;
	const active = items.find((item) => item.id === requested) ?? items[0];
	const tabRefs = useRef(new Map<string, HTMLButtonElement>());

	if (!active) return null;

	const select = (id: string) => {
		if (selected === undefined) setUncontrolled(id);
		onSelect?.(id);
	};

	const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
		const current = items.findIndex((item) => item.id === active.id);
		const next = nextTabIndex(event.key, current, items.length);
		if (next === undefined) return;
		event.preventDefault();
		const item = items[next];
		if (!item) return;
		select(item.id);
		tabRefs.current.get(item.id)?.focus();
	};

	const tabId = (id: string) => `${baseId}-tab-${id}`;
	const panelId = (id: string) => `${baseId}-panel-${id}`;

	return (
		<div className={`tabs${className ? ` ${className}` : ""}`}>
			<div role="tablist" aria-label={label} className="tablist">
				{items.map((item) => {
					const isActive = item.id === active.id;
					return (
						<button
							key={item.id}
							ref={(element) => {
								if (element) tabRefs.current.set(item.id, element);
								else tabRefs.current.delete(item.id);
							}}
							type="button"
							role="tab"
							id={tabId(item.id)}
							aria-selected={isActive}
							// Only the selected tab's panel is rendered, so only it can be referenced.
							aria-controls={isActive ? panelId(item.id) : undefined}
							tabIndex={isActive ? 0 : -1}
							className="tab"
							data-state={isActive ? "active" : "inactive"}
							onClick={() => select(item.id)}
							onKeyDown={onKeyDown}
						>
							{item.label}
						</button>
					);
				})}
			</div>
			<div
				role="tabpanel"
				id={panelId(active.id)}
				aria-labelledby={tabId(active.id)}
				tabIndex={0}
				className="tabpanel"
			>
				{active.content}
			</div>
		</div>
	);
}
