/**
 * A diff as rows to show (src/components/browse/DiffTable.tsx), apart from src/view/diff.ts's diffing
 * (jsdiff), so a view that is handed a diff ready-made (a pull request's) does not load the library.
 */
export interface DiffRow {
	kind: "context" | "added" | "removed" | "hunk";
	oldLine?: number;
	newLine?: number;
	text: string;
}

/** How many lines a diff adds and removes. */
export function diffStats(rows: readonly DiffRow[]): { added: number; removed: number } {
	let added = 0;
	let removed = 0;
	for (const row of rows) {
		if (row.kind === "added") added++;
		else if (row.kind === "removed") removed++;
	}
	return { added, removed };
}
