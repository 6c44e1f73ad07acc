// The name rules are shared with the web app, which checks them before creating a repository.
import { repoIdProblem } from "@modelhub/tasks/repositories";
import { replaceControlCharacters } from "@modelhub/tasks/literals";

export { ID_PART_PATTERN, idPartProblem } from "@modelhub/tasks/repositories";

/**
 * Why `id` is not a valid model id, or undefined when it is: `namespace/name`, or a bare `name` (the
 * public hub's legacy canonical models, such as `gpt2`, have no namespace).
 */
export function modelIdProblem(id: unknown): string | undefined {
	return repoIdProblem(id, "model");
}

/** Shortens untrusted text for an error message (and strips control characters). */
export function quoteForMessage(value: unknown, max = 80): string {
	const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
	const clean = replaceControlCharacters(text, "?");
	return JSON.stringify(clean.length > max ? `${clean.slice(0, max)}…` : clean);
}
