/**
 * The model card: README.md rendered from Markdown with `marked` (GitHub-flavoured) and cleaned by
 * DOMPurify before it touches the page. A chunk of its own, loaded with the card tab.
 *
 * Beyond DOMPurify's defaults: no `style` attributes or `<style>` elements (the hub's CSP forbids inline
 * styles; each would log a violation), no forms; links to other sites open with `rel="noopener
 * noreferrer nofollow"`; relative links and images point at the repository's files; pictures from other
 * hosts become links (the CSP allows images from the hub only). Code blocks, and wrappers around tables,
 * are named regions in the tab order that scroll sideways on a phone. Headings move one level down, so
 * the card's `#` sits under the page's own title.
 */
import DOMPurify from "dompurify";
import { Marked } from "marked";
import { useMemo } from "react";
import { fileUrl } from "../../api/models";
import { cardBody, cardMetadata } from "../../view/model";
import type { RepoType } from "@modelhub/tasks/repositories";
import { useRepoType } from "../../hooks/useRepoType";

/** A GitHub-flavoured renderer whose headings sit `levels` below their Markdown level. */
function headingsBelow(levels: number): Marked {
	return new Marked({
		gfm: true,
		walkTokens(token) {
			if (token.type === "heading") token.depth = Math.min(6, token.depth + levels);
		},
	});
}

/** A card's `#` sits under the page's title; a comment's under the discussion's (an `<h2>`). */
const cardMarked = headingsBelow(1);
const commentMarked = headingsBelow(2);

function isExternal(url: string): boolean {
	return /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("//");
}

/**
 * A relative link of a Markdown file, as a path of the repository: `/b.png` from the root, `b.png`,
 * `./b.png` and `../b.png` from the file's own folder (as GitHub and the public hub resolve them).
 */
export function repoPath(url: string, folder = ""): string {
	const bare = url.replace(/[?#].*$/, "");
	const parts = bare.startsWith("/") ? [] : folder.split("/").filter(Boolean);
	for (const part of bare.split("/")) {
		if (part === "" || part === ".") continue;
		if (part === "..") parts.pop();
		else parts.push(part);
	}
	return parts.join("/");
}

/** Where a rendered file's relative links point: the revision shown and the file's folder. */
export interface CardPlace {
	revision?: string;
	/** The type of repository the card belongs to (models when absent): `/datasets/{id}/resolve/…` links. */
	repoType?: RepoType;
	/** The folder of the Markdown file ("" for the root, as README.md). */
	folder?: string;
	/**
	 * A discussion comment rather than a card: the whole text (no front matter), headings under the
	 * thread's, and code regions named after `label` (several comments share the page, axe's
	 * landmark-unique).
	 */
	comment?: { label: string };
}

export function renderCard(
	markdown: string,
	modelId: string,
	origin: string,
	{ revision = "main", folder = "", repoType = "model", comment }: CardPlace = {},
): string {
	const html = comment
		? commentMarked.parse(markdown, { async: false })
		: cardMarked.parse(cardBody(markdown), { async: false });
	const purify = DOMPurify(window);
	let codeBlocks = 0;
	purify.addHook("afterSanitizeAttributes", (node) => {
		if (node.tagName === "PRE") {
			// A long line scrolls the block sideways: keyboard users reach it with Tab and scroll it with
			// the arrow keys (axe's scrollable-region-focusable, a serious violation at 390 px without it).
			// Each region's name is its own (axe's landmark-unique).
			node.setAttribute("tabindex", "0");
			node.setAttribute("role", "region");
			node.setAttribute(
				"aria-label",
				comment ? `${comment.label}, code ${++codeBlocks}` : `Code example ${++codeBlocks}`,
			);
		}
		if (node.tagName === "A") {
			const href = node.getAttribute("href") ?? "";
			if (href.startsWith("#")) return;
			if (isExternal(href)) {
				node.setAttribute("rel", "noopener noreferrer nofollow");
			} else if (href) {
				node.setAttribute("href", fileUrl(modelId, revision, repoPath(href, folder), "", repoType));
			}
		}
		if (node.tagName === "IMG") {
			const src = node.getAttribute("src") ?? "";
			if (!src) return;
			if (!isExternal(src)) {
				node.setAttribute("src", fileUrl(modelId, revision, repoPath(src, folder), "", repoType));
			} else if (!src.startsWith(origin)) {
				// Not loadable under the page's CSP: a link to the picture instead.
				const link = node.ownerDocument.createElement("a");
				link.setAttribute("href", src);
				link.setAttribute("rel", "noopener noreferrer nofollow");
				link.textContent = `Image: ${node.getAttribute("alt") || src}`;
				node.replaceWith(link);
			}
		}
	});
	const clean = purify.sanitize(html, {
		FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"],
		FORBID_ATTR: ["style"],
		RETURN_DOM_FRAGMENT: true,
	});
	purify.removeAllHooks();
	// A table keeps its columns' natural widths (numbers whole, not a digit a line on a phone) and
	// scrolls sideways in a named region in the tab order, as a code block does; the table keeps its
	// table semantics, so the scroller is a wrapper (added after the sanitiser, which would walk into it).
	let tables = 0;
	for (const table of clean.querySelectorAll("table")) {
		const scroller = window.document.createElement("div");
		scroller.className = "card-table-scroll";
		scroller.tabIndex = 0;
		scroller.setAttribute("role", "region");
		scroller.setAttribute(
			"aria-label",
			comment ? `${comment.label}, table ${++tables}` : `Table ${++tables}`,
		);
		table.replaceWith(scroller);
		scroller.append(table);
	}
	const out = window.document.createElement("div");
	out.append(clean);
	return out.innerHTML;
}

export default function ModelCard({
	markdown,
	modelId,
	cardData,
}: {
	markdown: string;
	modelId: string;
	cardData: Record<string, unknown> | undefined;
}) {
	const repoType = useRepoType();
	const html = useMemo(
		() => renderCard(markdown, modelId, window.location.origin, { repoType }),
		[markdown, modelId, repoType],
	);
	const metadata = cardMetadata(cardData);
	return (
		<div className="model-card-view">
			{metadata.length > 0 ? (
				<dl className="card-metadata" aria-label="Model card metadata">
					{metadata.map((item) => (
						<div key={item.label}>
							<dt>{item.label}</dt>
							<dd>{item.values.join(", ")}</dd>
						</div>
					))}
				</dl>
			) : null}
			{/* Sanitised by DOMPurify above. */}
			<div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
		</div>
	);
}
