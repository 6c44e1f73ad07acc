/** JSON text for embedding in snippets (request bodies, config files). */
export function jsonText(value: unknown, space: string | number = 0): string {
	return (JSON.stringify(value, null, space) ?? "null")
		.replace(/\u2028/g, "\\u2028")
		.replace(/\u2029/g, "\\u2029");
}
