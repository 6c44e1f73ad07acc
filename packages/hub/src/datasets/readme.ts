/**
 * What a dataset card's text says of the dataset, for `description` and `citation` in dataset info (the
 * public hub shows the card's opening prose and its BibTeX entry there). Pure and linear in the text.
 */

/** The longest description kept (the public hub shows a short excerpt in its listings). */
export const MAX_DESCRIPTION_CHARS = 1000;
/** The longest citation kept. */
export const MAX_CITATION_CHARS = 10_000;

/** The card's text after its front matter (`---` … `---` at the top). */
function body(text: string): string {
	const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
	if (lines[0]?.trim() !== "---") return lines.join("\n");
	const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
	return end < 0 ? "" : lines.slice(end + 1).join("\n");
}

/** Whether a line starts something other than a prose paragraph (a heading, list, table, quote, HTML, image). */
function isStructure(line: string): boolean {
	return /^\s*(#|[-*+]\s|\d+[.)]\s|\||>|<|!\[|\[!\[)/.test(line);
}

/** Markdown inline marks reduced to their text: links, emphasis, code. */
function plain(text: string): string {
	return text
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
		.replace(/[*_`]+/g, "")
		.replace(/\s+/g, " ")
		.trim();
}

export interface ReadmeFacts {
	description?: string;
	citation?: string;
}

/** The first prose paragraph and the first ```bibtex block of a card (README.md's text). */
export function readmeFacts(text: string): ReadmeFacts {
	const lines = body(text).split("\n");
	const facts: ReadmeFacts = {};
	let paragraph: string[] = [];
	let fence: { bibtex: boolean; lines: string[] } | undefined;
	const flush = (): void => {
		const text = plain(paragraph.join(" "));
		if (text !== "" && facts.description === undefined)
			facts.description = text.slice(0, MAX_DESCRIPTION_CHARS);
		paragraph = [];
	};
	for (const line of lines) {
		const marker = /^\s*(```|~~~)\s*([A-Za-z]*)/.exec(line);
		if (fence) {
			if (marker) {
				if (fence.bibtex && facts.citation === undefined) {
					const citation = fence.lines.join("\n").trim();
					if (citation !== "") facts.citation = citation.slice(0, MAX_CITATION_CHARS);
				}
				fence = undefined;
			} else fence.lines.push(line);
			continue;
		}
		if (marker) {
			fence = { bibtex: (marker[2] ?? "").toLowerCase() === "bibtex", lines: [] };
			flush();
			continue;
		}
		if (facts.description === undefined) {
			if (line.trim() === "" || isStructure(line)) flush();
			else paragraph.push(line);
		}
	}
	flush();
	return facts;
}
