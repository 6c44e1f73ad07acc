/** Builds the CLI from the current sources into a private folder named `name`; the built file's path. */
export function buildCli(name: string): Promise<string>;
