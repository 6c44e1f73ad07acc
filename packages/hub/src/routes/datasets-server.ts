import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type {
	ViewerFirstRowsAnswer,
	ViewerInfoAnswer,
	ViewerIsValidAnswer,
	ViewerParquetAnswer,
	ViewerRowsAnswer,
	ViewerSizeAnswer,
	ViewerSplitsAnswer,
	ViewerStatisticsAnswer,
	ViewerDatasetInfo,
	ViewerConfigSize,
	ViewerRowItem,
	ViewerSplitSize,
} from "../api/viewer.js";
import {
	archiveMember,
	capabilities,
	configInfo,
	featureItems,
	filterRows,
	parquetFiles,
	ROWS_PER_PAGE,
	rowsPage,
	searchRows,
	splitItems,
	splitSizes,
	splitStatistics,
	viewedDataset,
	withSplit,
	type OpenSplit,
	type ViewedDataset,
	type ViewerContext,
} from "../services/viewer.js";
import { invalidParameter, missingParameter, notFound } from "../viewer/errors.js";
import { isViewable } from "../viewer/layout.js";
import { isValidOrderBy, isValidWhere } from "../viewer/where.js";
import { publicOrigin } from "./models/context.js";
import { fileCacheControl } from "./models/resolve.js";
import { COMMIT_ID } from "../vocabulary.js";

/**
 * The dataset viewer's API on the hub's own origin, as the public viewer answers it
 * (`https://datasets-server.huggingface.co/…` there, `/datasets-server/…` here): `/is-valid`, `/splits`,
 * `/first-rows`, `/rows`, `/search`, `/filter`, `/statistics`, `/size`, `/info`, `/parquet`. Parameters are read as the
 * public viewer reads them (a missing one is a 422 `MissingRequiredParameter`, a bad one a 422
 * `InvalidParameter`); answers carry `X-Revision` (the commit they were computed from).
 */

export const DATASETS_SERVER_PREFIX = "/datasets-server";

type Query = Record<string, string | string[] | undefined>;

/** A page of rows and how many rows the whole selection has. */
interface PickedRows {
	rows: ViewerRowItem[];
	total: number;
}

/** Longest value of a parameter (a `where` clause included). */
const MAX_PARAMETER_CHARS = 4096;

/**
 * `/rows` pages within this many rows of the start are answered from a split's leading row groups while
 * its files are still being copied (the web's first pages); later pages wait for the whole files.
 */
const EARLY_ROWS = 10 * ROWS_PER_PAGE;

function parameter(query: Query, name: string): string | undefined {
	const raw = query[name];
	const value = Array.isArray(raw) ? raw.at(-1) : raw;
	if (value === undefined || value.trim() === "") return undefined;
	if (value.length > MAX_PARAMETER_CHARS || value.includes("\u0000")) {
		throw invalidParameter(`Parameter '${name}' is invalid`);
	}
	return value;
}

function required(query: Query, name: string): string {
	const value = parameter(query, name);
	if (value === undefined) throw missingParameter(name);
	return value;
}

/** `offset` and `length` as dataset-viewer's `libapi/request.py` reads them. */
function paging(query: Query): { offset: number; length: number } {
	const offsetText = parameter(query, "offset") ?? "0";
	const lengthText = parameter(query, "length") ?? String(ROWS_PER_PAGE);
	if (!/^-?\d{1,15}$/.test(offsetText)) throw invalidParameter("Parameter 'offset' must be integer");
	if (!/^-?\d{1,15}$/.test(lengthText)) throw invalidParameter("Parameter 'length' must be integer");
	const offset = Number(offsetText);
	const length = Number(lengthText);
	if (offset < 0) throw invalidParameter("Parameter 'offset' must be positive");
	if (length < 0) throw invalidParameter("Parameter 'length' must be positive");
	if (length > ROWS_PER_PAGE)
		throw invalidParameter(`Parameter 'length' must not be greater than ${ROWS_PER_PAGE}`);
	return { offset, length };
}

function answer<T>(reply: FastifyReply, dataset: ViewedDataset, body: T): T {
	void reply.header("x-revision", dataset.at.commitId);
	// A private dataset's answers must not be kept by shared caches.
	void reply.header("cache-control", dataset.at.private ? "private, no-store" : "no-cache");
	return body;
}

export function datasetsServerRoutes(
	app: FastifyInstance,
	context: ViewerContext,
	publicUrl: string | undefined,
): void {
	const get = <T>(
		path: string,
		handler: (request: FastifyRequest, reply: FastifyReply, query: Query) => Promise<T>,
	): void => {
		app.get(`${DATASETS_SERVER_PREFIX}${path}`, async (request, reply) =>
			handler(request, reply, request.query as Query),
		);
	};
	// `revision` is ModelHub's own (the public viewer serves main only): any branch, tag, commit or PR ref.
	const dataset = async (request: FastifyRequest, query: Query): Promise<ViewedDataset> => ({
		...(await viewedDataset(
			context,
			request.viewer,
			required(query, "dataset"),
			parameter(query, "revision"),
		)),
		origin: publicOrigin(request, publicUrl),
	});

	/**
	 * `/archive-member?dataset=&revision=&path={archive}::{file}`: one file inside a `.zip` file of the dataset (what
	 * the image and audio cells of archived folder datasets link), with the archive's rights and within the zip
	 * limits; typed by its extension, never sniffed.
	 */
	const member = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
		const query = request.query as Query;
		const revision = parameter(query, "revision") ?? "main";
		const found = await archiveMember(
			context,
			request.viewer,
			required(query, "dataset"),
			revision,
			required(query, "path"),
		);
		const name = found.member.slice(found.member.lastIndexOf("/") + 1);
		const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
		void reply.headers({
			"content-type": found.contentType,
			"content-length": String(found.size),
			"content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(name)}; filename="${ascii}"`,
			"x-content-type-options": "nosniff",
			"content-security-policy": "default-src 'none'; sandbox",
			"x-revision": found.at.commitId,
			"cache-control": fileCacheControl(found.at, COMMIT_ID.test(revision)),
		});
		if (request.method === "HEAD") {
			found.stream.destroy();
			return reply.send();
		}
		return reply.send(found.stream);
	};
	// HEAD is its own route: the one Fastify derives from GET answers Content-Length: 0 to a body-less reply.
	app.get(`${DATASETS_SERVER_PREFIX}/archive-member`, { exposeHeadRoute: false }, member);
	app.head(`${DATASETS_SERVER_PREFIX}/archive-member`, member);

	get("/is-valid", async (request, reply, query): Promise<ViewerIsValidAnswer> => {
		const found = await dataset(request, query);
		const config = parameter(query, "config");
		const split = parameter(query, "split");
		return answer(reply, found, capabilities(found, config, split));
	});

	get("/splits", async (request, reply, query): Promise<ViewerSplitsAnswer> => {
		const found = await dataset(request, query);
		return answer(reply, found, {
			splits: splitItems(found, parameter(query, "config")),
			pending: [],
			failed: [],
		});
	});

	get("/first-rows", async (request, reply, query): Promise<ViewerFirstRowsAnswer> => {
		const found = await dataset(request, query);
		const config = required(query, "config");
		const split = required(query, "split");
		const body = await withSplit(
			context,
			found,
			config,
			split,
			async (open) => ({
				dataset: found.at.id,
				config,
				split,
				features: featureItems(open.facts),
				rows: await rowsPage(open, 0, ROWS_PER_PAGE),
				truncated: open.facts.numRows > ROWS_PER_PAGE,
			}),
			ROWS_PER_PAGE,
		);
		return answer(reply, found, body);
	});

	/**
	 * `/rows`, `/search` and `/filter`: one page of a split's rows. `select` reads the route's own
	 * parameters (after `config` and `split`, before the paging, as the public viewer checks them) and
	 * answers how to pick the page's rows.
	 */
	const rowsRoute = (
		path: string,
		select: (query: Query) => (open: OpenSplit, offset: number, length: number) => Promise<PickedRows>,
		readsFromStart = false,
	): void =>
		get(path, async (request, reply, query): Promise<ViewerRowsAnswer> => {
			const found = await dataset(request, query);
			const config = required(query, "config");
			const split = required(query, "split");
			const pick = select(query);
			const { offset, length } = paging(query);
			const firstRows = readsFromStart && offset + length <= EARLY_ROWS ? offset + length : undefined;
			const body = await withSplit(
				context,
				found,
				config,
				split,
				async (open) => {
					const { rows, total } = await pick(open, offset, length);
					return {
						features: featureItems(open.facts),
						rows,
						num_rows_total: total,
						num_rows_per_page: ROWS_PER_PAGE,
						partial: open.partial,
					};
				},
				firstRows,
			);
			return answer(reply, found, body);
		});

	rowsRoute(
		"/rows",
		() => async (open, offset, length) => ({
			rows: await rowsPage(open, offset, length),
			total: open.facts.numRows,
		}),
		true,
	);

	rowsRoute("/search", (query) => {
		const text = required(query, "query");
		return (open, offset, length) => searchRows(open, text, offset, length);
	});

	rowsRoute("/filter", (query) => {
		const where = parameter(query, "where");
		const orderby = parameter(query, "orderby");
		if (where !== undefined && !isValidWhere(where)) {
			throw invalidParameter("Parameter 'where' contains errors or invalid symbols");
		}
		if (orderby !== undefined && !isValidOrderBy(orderby)) {
			throw invalidParameter("Parameter 'orderby' contains errors or invalid symbols");
		}
		return (open, offset, length) => filterRows(open, where, orderby, offset, length);
	});

	get("/statistics", async (request, reply, query): Promise<ViewerStatisticsAnswer> => {
		const found = await dataset(request, query);
		const config = required(query, "config");
		const split = required(query, "split");
		return answer(reply, found, await splitStatistics(context, found, config, split));
	});

	get("/size", async (request, reply, query): Promise<ViewerSizeAnswer> => {
		const found = await dataset(request, query);
		const configName = parameter(query, "config");
		const configs =
			configName === undefined
				? found.configs.filter(isViewable)
				: found.configs.filter((item) => item.name === configName);
		if (configName !== undefined && configs.length === 0) throw notFound();
		const configSizes: ViewerConfigSize[] = [];
		const splits: ViewerSplitSize[] = [];
		let partial = false;
		for (const config of configs) {
			const sized = await splitSizes(context, found, config);
			partial ||= sized.partial;
			splits.push(...sized.splits);
			const sum = (pick: (split: ViewerSplitSize) => number): number =>
				sized.splits.reduce((total, split) => total + pick(split), 0);
			configSizes.push({
				dataset: found.at.id,
				config: config.name,
				num_bytes_original_files: sum((split) => split.num_bytes_original_files),
				num_bytes_parquet_files: sum((split) => split.num_bytes_parquet_files),
				num_bytes_memory: sum((split) => split.num_bytes_memory),
				num_rows: sum((split) => split.num_rows),
				num_columns: sized.splits[0]?.num_columns ?? 0,
				estimated_num_rows: null,
			});
		}
		const total = (pick: (size: ViewerConfigSize) => number): number =>
			configSizes.reduce((sum, size) => sum + pick(size), 0);
		const size: ViewerSizeAnswer["size"] =
			configName !== undefined
				? { ...(configSizes[0] ? { config: configSizes[0] } : {}), splits }
				: {
						dataset: {
							dataset: found.at.id,
							num_bytes_original_files: total((size) => size.num_bytes_original_files),
							num_bytes_parquet_files: total((size) => size.num_bytes_parquet_files),
							num_bytes_memory: total((size) => size.num_bytes_memory),
							num_rows: total((size) => size.num_rows),
							estimated_num_rows: null,
						},
						configs: configSizes,
						splits,
					};
		return answer(reply, found, { size, pending: [], failed: [], partial });
	});

	get("/info", async (request, reply, query): Promise<ViewerInfoAnswer> => {
		const found = await dataset(request, query);
		const configName = parameter(query, "config");
		const configs =
			configName === undefined
				? found.configs.filter(isViewable)
				: found.configs.filter((item) => item.name === configName);
		if (configName !== undefined && configs.length === 0) throw notFound();
		const infos: Record<string, ViewerDatasetInfo> = {};
		let partial = false;
		for (const config of configs) {
			const { info, partial: part } = await configInfo(context, found, config);
			infos[config.name] = info;
			partial ||= part;
		}
		const single = configName !== undefined ? infos[configName] : undefined;
		return answer(reply, found, { dataset_info: single ?? infos, pending: [], failed: [], partial });
	});

	get("/parquet", async (request, reply, query): Promise<ViewerParquetAnswer> => {
		const found = await dataset(request, query);
		const files = parquetFiles(found, publicOrigin(request, publicUrl), parameter(query, "config"));
		return answer(reply, found, { parquet_files: files, pending: [], failed: [], partial: false });
	});
}
