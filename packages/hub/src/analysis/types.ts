/**
 * What repository analysis works on: the files of one revision, read by byte range. Analysis reads
 * only what it needs (JSON files whole up to a bound, weights files by their headers), so the
 * cost of analysing a commit does not grow with the size of the weights.
 */

/** A file of the analysed revision. */
export interface RevisionFile {
	path: string;
	size: number;
}

/**
 * Reads bytes [start, end) of a file of the analysed revision (end exclusive, clamped to the file's size
 * by the caller's bounds). Rejects when the file is not in the revision or its bytes cannot be read.
 */
export type ReadRange = (path: string, start: number, end: number) => Promise<Uint8Array>;
