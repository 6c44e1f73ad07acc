/**
 * The hub's rules for repository names and file paths, declared once: the hub enforces them, and the
 * web app checks the same rules (same words) before it sends anything.
 */

/** Longest repository path, in UTF-16 code units (git itself allows 4096 bytes; the hub keeps URLs short). */
export const MAX_PATH_LENGTH = 1000;

/** One half of a model id: the namespace (user or organisation) or the repository name. */
export const ID_PART_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$";
const ID_PART = new RegExp(ID_PART_PATTERN);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `part` (named `what`) is not a valid half of a model id, or undefined when it is. */
export function idPartProblem(part: string, what: string): string | undefined {
	if (!ID_PART.test(part)) {
		return `${what} must be 1 to 96 characters of letters, digits, '.', '_' or '-', starting with a letter or digit`;
	}
	if (part.includes("..")) return `${what} must not contain '..'`;
	return undefined;
}

/** Why `path` cannot name a file in a repository, or undefined when it can. */
export function repoPathProblem(path: string): string | undefined {
	if (path.length === 0) return "path is empty";
	if (path.length > MAX_PATH_LENGTH) return `path is longer than ${MAX_PATH_LENGTH} characters`;
	if (CONTROL.test(path)) return "path contains control characters";
	if (!path.isWellFormed()) return "path contains unpaired UTF-16 surrogates";
	if (path.startsWith("/") || path.endsWith("/")) return "path must not start or end with '/'";
	for (const segment of path.split("/")) {
		if (segment === "") return "path contains an empty segment ('//')";
		if (segment === "." || segment === "..") return "path contains a '.' or '..' segment";
		if (segment === ".git") return "path contains a '.git' segment";
	}
	return undefined;
}
