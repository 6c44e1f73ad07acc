import {
	PARQUET_TAIL_BYTES,
	parquetFooterLength,
	parquetRowGroupSpans,
	type RowGroupSpan,
} from "../datasets/row-counts.js";
import { MAX_EARLY_READ_BYTES, type EarlyFill } from "./spool.js";

/**
 * The first rows of a Parquet split before its files are whole: the engine reads each file's footer
 * (schema, row counts) and then only the row groups a `LIMIT` reaches, so those are all a copy needs.
 */

/** Bytes read from a file's end at first: the tail and, for most files, the whole footer in one request. */
export const FOOTER_GUESS_BYTES = 64 * 1024;

/** The row groups from the start of a file that hold its first `rows` rows (all of them if it has fewer). */
export function leadingGroups(spans: readonly RowGroupSpan[], rows: number): RowGroupSpan[] {
	const wanted: RowGroupSpan[] = [];
	let left = rows;
	for (const span of spans) {
		if (left <= 0) break;
		wanted.push(span);
		left -= span.rows;
	}
	return wanted;
}

/**
 * An early fill for the first `rows` rows of a split of Parquet files, in order: every file's footer, and
 * the leading row groups holding those rows. False (wait for the whole files) when a footer cannot be read
 * or does not say where its row groups are: the engine then reads the whole file and names what is wrong.
 */
export function parquetHeadFill(rows: number): EarlyFill {
	return async (files) => {
		let left = rows;
		for (const { file, read, fetch } of files) {
			if (file.size < PARQUET_TAIL_BYTES + 4) return false;
			const guessStart = Math.max(0, file.size - FOOTER_GUESS_BYTES);
			const end = await read({ start: guessStart, end: file.size });
			let length: number;
			try {
				length = parquetFooterLength(end.subarray(end.length - PARQUET_TAIL_BYTES), file.size);
			} catch {
				return false;
			}
			if (length > MAX_EARLY_READ_BYTES) return false;
			const footerStart = file.size - PARQUET_TAIL_BYTES - length;
			const footer =
				footerStart >= guessStart
					? end.subarray(footerStart - guessStart, end.length - PARQUET_TAIL_BYTES)
					: await read({ start: footerStart, end: file.size - PARQUET_TAIL_BYTES });
			if (left <= 0) continue;
			const spans = parquetRowGroupSpans(footer, footerStart);
			if (spans === undefined) return false;
			const groups = leadingGroups(spans, left);
			for (const group of groups) left -= group.rows;
			const first = groups[0];
			const last = groups.at(-1);
			// One range from the first group to the last (written one after the other: one request, not one each).
			if (first !== undefined && last !== undefined) await fetch({ start: first.start, end: last.end });
		}
		return true;
	};
}
