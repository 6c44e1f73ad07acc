/** Builds entry points of the package's sources (name → path under the package); each built file's path. */
export function buildSources<Entry extends string>(
	name: string,
	entries: Record<Entry, string>,
): Promise<Record<Entry, string>>;
/** Builds the CLI from the current sources into a private folder named `name`; the built file's path. */
export function buildCli(name: string): Promise<string>;
