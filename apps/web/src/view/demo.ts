export interface TextSegment {
	text: string;
	/** The entity or part-of-speech type, for highlighted segments. */
	type?: string;
}

/**
 * Cuts `text` into plain and highlighted segments. Tokens are sorted; overlapping or out-of-range
 * tokens are clipped rather than trusted, so a malformed demo still renders every character once.
 */
export function tokenSegments(
	text: string,
	tokens: Array<{ type: string; start: number; end: number }>,
): TextSegment[] {
	const sorted = [...tokens].sort((a, b) => a.start - b.start || a.end - b.end);
	const segments: TextSegment[] = [];
	let position = 0;
	for (const token of sorted) {
		const start = Math.max(position, Math.min(text.length, Math.floor(token.start)));
		const end = Math.max(start, Math.min(text.length, Math.floor(token.end)));
		if (end === start) continue;
		if (start > position) segments.push({ text: text.slice(position, start) });
		segments.push({ text: text.slice(start, end), type: token.type });
		position = end;
	}
	if (position < text.length) segments.push({ text: text.slice(position) });
	return segments;
}

export interface Bar {
	label: string;
	score: number;
	/** Width of the bar in percent of the track, 0–100. */
	percent: number;
}

/** Label/score pairs as bars, highest first, widths clamped to the track. */
export function chartBars(data: Array<{ label: string; score: number }>): Bar[] {
	return [...data]
		.filter((item) => Number.isFinite(item.score))
		.sort((a, b) => b.score - a.score)
		.map((item) => ({
			label: item.label,
			score: item.score,
			percent: Math.round(Math.max(0, Math.min(1, item.score)) * 1000) / 10,
		}));
}

/** The distinct token types of a text-with-tokens entry, in order of first appearance. */
export function tokenTypes(tokens: Array<{ type: string }>): string[] {
	return [...new Set(tokens.map((token) => token.type))];
}
