import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { FOOTER_GUESS_BYTES, parquetHeadFill } from "./parquet-head.js";
import type { ByteSpan, EarlyFile } from "./spool.js";

/** Files as an early fill sees them, reading from buffers and noting each range asked for. */
function earlyFiles(buffers: Buffer[], asked: string[]): EarlyFile[] {
	return buffers.map((bytes, index) => {
		const take = (span: ByteSpan): Buffer => {
			asked.push(`${index}:${span.start}-${span.end}`);
			return bytes.subarray(span.start, span.end);
		};
		return {
			file: { sha256: `file-${index}`, size: bytes.length },
			complete: false,
			read: async (span) => take(span),
			fetch: async (span) => void take(span),
		};
	});
}

describe("the first rows of a Parquet split before its files are whole", () => {
	it("reads each footer and fetches the leading row groups holding the rows asked for, across files", async () => {
		const dir = await mkdtemp(join(tmpdir(), "parquet-head-"));
		const instance = await DuckDBInstance.create(":memory:");
		const connection = await instance.connect();
		try {
			const paths = [join(dir, "a.parquet"), join(dir, "b.parquet")];
			await connection.run(
				`COPY (SELECT i, md5(i::VARCHAR) AS h FROM range(3000) t(i)) TO '${paths[0]}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`,
			);
			await connection.run(
				`COPY (SELECT i, md5(i::VARCHAR) AS h FROM range(5000) t(i)) TO '${paths[1]}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`,
			);
			const buffers = await Promise.all(paths.map((path) => readFile(path)));
			const groups = async (path: string) =>
				(
					await connection.runAndReadAll(
						`SELECT min(coalesce(dictionary_page_offset, data_page_offset))::INTEGER AS s,
						max(coalesce(dictionary_page_offset, data_page_offset) + total_compressed_size)::INTEGER AS e
						FROM parquet_metadata('${path}') GROUP BY row_group_id ORDER BY row_group_id`,
					)
				).getRowObjectsJS() as Array<{ s: number; e: number }>;
			const [a, b] = await Promise.all(paths.map(groups));
			const [sizeA, sizeB] = buffers.map((bytes) => bytes.length) as [number, number];
			// The last 64 KiB at first (the tail and the footer in one range).
			const tail = (index: number, size: number) =>
				`${index}:${Math.max(0, size - FOOTER_GUESS_BYTES)}-${size}`;

			// 100 rows: the first group of the first file; the second file's footer only.
			const asked: string[] = [];
			expect(await parquetHeadFill(100)(earlyFiles(buffers, asked))).toBe(true);
			expect(asked).toEqual([tail(0, sizeA), `0:${a?.[0]?.s}-${a?.[0]?.e}`, tail(1, sizeB)]);

			// 4,000 rows: both groups of the first file (3,000 rows) in one range, then the second file's first.
			const more: string[] = [];
			expect(await parquetHeadFill(4000)(earlyFiles(buffers, more))).toBe(true);
			expect(more).toEqual([
				tail(0, sizeA),
				`0:${a?.[0]?.s}-${a?.[1]?.e}`,
				tail(1, sizeB),
				`1:${b?.[0]?.s}-${b?.[0]?.e}`,
			]);

			// Not Parquet (no magic at its end): no plan, the whole files are waited for.
			const other = earlyFiles([Buffer.from("a,b\n1,2\n".repeat(10))], []);
			expect(await parquetHeadFill(100)(other)).toBe(false);
		} finally {
			connection.closeSync();
			instance.closeSync();
			await rm(dir, { recursive: true, force: true });
		}
	});
});
