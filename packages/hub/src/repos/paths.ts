import { hasControlCharacter } from "@modelhub/tasks/literals";
// The path rules are shared with the web app, which checks them before uploading.
export { MAX_PATH_LENGTH, repoPathProblem, writablePathProblem } from "@modelhub/tasks/repositories";
/** Longest branch or tag name. */
export const MAX_REF_LENGTH = 200;

/** Why `name` cannot be a branch or tag, or undefined (git's check-ref-format rules, simplified). */
export function refNameProblem(name: string): string | undefined {
	if (name.length === 0 || name.length > MAX_REF_LENGTH) return `must be 1 to ${MAX_REF_LENGTH} characters`;
	if (hasControlCharacter(name) || /[ ~^:?*[\\]/.test(name)) return "contains a character git refuses";
	if (!name.isWellFormed()) return "contains unpaired UTF-16 surrogates";
	if (
		name.startsWith("/") ||
		name.endsWith("/") ||
		name.endsWith(".") ||
		name.includes("..") ||
		name.includes("//")
	)
		return "is not a valid git ref name";
	if (name.includes("@{") || name === "@") return "is not a valid git ref name";
	return undefined;
}
