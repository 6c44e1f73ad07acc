/**
 * The commit an import writes for a catalogue model that brings no files of its own: by the hub itself,
 * with no parent, holding only files the hub generated from the metadata (a model card and config
 * files, or just `.gitattributes`). A main branch still at that commit means the model carries only
 * metadata: its files live on the public hub, not here.
 */

/** Who the hub's own commits are by. */
export const HUB_AUTHOR = { authorName: "ModelHub", authorEmail: "hub@modelhub.invalid" } as const;

/** The titles of an import's generated first commit: with a card and configs, or bare. */
export const GENERATED_COMMIT_TITLES = { card: "Add model card", bare: "Initial commit" } as const;

/** The `author` column of the hub's own commits (`Name <email>`, as writeCommits stores it). */
export const HUB_AUTHOR_TEXT = `${HUB_AUTHOR.authorName} <${HUB_AUTHOR.authorEmail}>`;
