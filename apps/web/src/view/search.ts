/** Home-page search over tasks and libraries (local) — models come from the hub API. */

export interface SearchItem {
	kind: "task" | "library";
	id: string;
	label: string;
	href: string;
	detail?: string;
}

function normalize(text: string): string {
	return text
		.toLowerCase()
		.normalize("NFKD")
		.replace(/[\u0300-\u036f]/g, "")
		.replace(/[-_/]+/g, " ");
}

/**
 * Ranks items for `query`: a label that starts with the query beats one that contains it at a word
 * start, which beats a plain substring match; items that miss any query word are dropped.
 */
export function searchItems(items: SearchItem[], query: string, limit = 8): SearchItem[] {
	const q = normalize(query).trim();
	if (!q) return [];
	const words = q.split(/\s+/);
	const scored: Array<{ item: SearchItem; score: number }> = [];
	for (const item of items) {
		const label = normalize(item.label);
		const haystack = `${label} ${normalize(item.id)}`;
		if (!words.every((word) => haystack.includes(word))) continue;
		let score = 3;
		if (label.startsWith(q)) score = 0;
		else if (label.includes(` ${q}`) || normalize(item.id).startsWith(q)) score = 1;
		else if (label.includes(q)) score = 2;
		scored.push({ item, score });
	}
	scored.sort(
		(a, b) =>
			a.score - b.score ||
			a.item.label.length - b.item.label.length ||
			a.item.label.localeCompare(b.item.label),
	);
	return scored.slice(0, limit).map((entry) => entry.item);
}
