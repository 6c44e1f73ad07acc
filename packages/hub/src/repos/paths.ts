/** Longest repository path, in UTF-16 code units (git itself allows 4096 bytes; the hub keeps URLs short). */
export const MAX_PATH_LENGTH = 1000;
/** Longest branch or tag name. */
export const MAX_REF_LENGTH = 200;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

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

/** Why `name` cannot be a branch or tag, or undefined (git's check-ref-format rules, simplified). */
export function refNameProblem(name: string): string | undefined {
	if (name.length === 0 || name.length > MAX_REF_LENGTH) return `must be 1 to ${MAX_REF_LENGTH} characters`;
	if (CONTROL.test(name) || /[ ~^:?*[\\]/.test(name)) return "contains a character git refuses";
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

export const COMMIT_ID = /^[0-9a-f]{40}$/;
