export { pyString, pyComment, pyValue, pyIdentifier, isPyIdentifier } from "./python.js";
export { jsString, jsComment, jsValue } from "./javascript.js";
export { shWord, shQuote, shComment } from "./shell.js";
export { jsonText } from "./json.js";
export { csString } from "./csharp.js";
export { urlPath, urlQueryValue } from "./url.js";
export {
	controlCharacterPattern,
	hasControlCharacter,
	hasControlCharacterBesidesLines,
	isControlCode,
	replaceControlCharacters,
	type ControlPatternOptions,
} from "./control.js";
