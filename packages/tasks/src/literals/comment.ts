import { controlCharacterPattern } from "./control.js";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// Every C0, DEL and C1 control but the tab (a comment keeps it), and the Unicode line separators. Marked
// pure so that a bundle that never writes a comment (the inference client's) drops it and the builder.
const LINE_BREAKS_AND_CONTROLS = /* @__PURE__ */ controlCharacterPattern({
	c1: true,
	except: "\t",
	also: "\u2028\u2029",
	run: true,
});

/**
 * Text safe to put after a line-comment marker in any language: on one line, with no control
 * characters, and valid UTF-8 (a lone surrogate would make the whole file unencodable).
 */
export function commentText(text: string): string {
	return text.replace(LONE_SURROGATE, "\ufffd").replace(LINE_BREAKS_AND_CONTROLS, " ");
}
