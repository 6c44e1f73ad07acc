/**
 * An NDJSON commit body (the hub's commit API, `POST /api/{type}s/{id}/commit/{revision}` with
 * `application/x-ndjson`): a header line with `summary`, then one line per file of `files` (path → text),
 * inline in base64. Shared by the hub's tests and the web app's e2e suites.
 */
export function ndjson(files: Record<string, string>, summary: string): string {
	return [
		{ key: "header", value: { summary } },
		...Object.entries(files).map(([path, content]) => ({
			key: "file",
			value: { path, encoding: "base64", content: Buffer.from(content).toString("base64") },
		})),
	]
		.map((line) => JSON.stringify(line))
		.join("\n");
}
