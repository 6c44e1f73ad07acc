const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const LINE_BREAKS_AND_CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * Text safe to put after a line-comment marker in any language: on one line, with no control
 * characters, and valid UTF-8 (a lone surrogate would make the whole file unencodable).
 */
export function commentText(text: string): string {
	return text.replace(LONE_SURROGATE, "\ufffd").replace(LINE_BREAKS_AND_CONTROLS, " ");
}
