/**
 * The dataset page's "Viewer" tab: the rows of a split from the hub's dataset viewer API
 * (`/datasets-server/splits`, `/rows`, `/search`, `/filter`), 100 a page, with a config/split picker, a
 * search box, a filter box (the viewer's SQL `where` clause; a clause it refuses shows its message) and
 * Previous/Next. Its state is in the address (`?tab=viewer&config=&split=&offset=&q=&where=`), so reload
 * and Back restore it. A search and a filter exclude each other, as the viewer's routes do.
 */
import { useId, useState } from "react";
import { useSearchParams } from "react-router";
import type { ViewerCell } from "@modelhub/hub/api";
import { viewerRows, viewerSplits, VIEWER_PAGE_ROWS } from "../../api/viewer";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import { formatExactCount } from "../../view/format";
import { ErrorNotice, Loading } from "../Status";

/** The longest cell text shown; the rest is cut with an ellipsis (the viewer may send long cells). */
const MAX_CELL_CHARS = 300;

function cellText(cell: ViewerCell): string {
	const text = typeof cell === "string" ? cell : cell === null ? "" : JSON.stringify(cell);
	return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS)}…` : text;
}

/** An audio cell's sources (the viewer's list of `{ src, type }`), web addresses only; undefined for another cell. */
function audioSources(cell: ViewerCell): Array<{ src: string; type: string }> | undefined {
	if (!Array.isArray(cell)) return undefined;
	const sources = cell.flatMap((item) => {
		if (item === null || typeof item !== "object" || Array.isArray(item)) return [];
		const { src, type } = item;
		if (typeof src !== "string" || !/^(https?:\/\/|\/)/.test(src)) return [];
		return [{ src, type: typeof type === "string" ? type : "" }];
	});
	return sources.length > 0 ? sources : undefined;
}

/** An image cell (the viewer's `{ src, height, width }`), a web address only; undefined for another cell. */
function imageSource(cell: ViewerCell): { src: string; height: number; width: number } | undefined {
	if (cell === null || typeof cell !== "object" || Array.isArray(cell)) return undefined;
	const { src, height, width } = cell;
	if (typeof src !== "string" || !/^(https?:\/\/|\/)/.test(src)) return undefined;
	if (typeof height !== "number" || typeof width !== "number") return undefined;
	return { src, height, width };
}

/**
 * A cell: an Audio column's as a player, an Image column's as the image (both named by their column and row),
 * any other as its text.
 */
function Cell({ cell, column, row, type }: { cell: ViewerCell; column: string; row: number; type: unknown }) {
	const image = type === "Image" ? imageSource(cell) : undefined;
	if (image !== undefined) {
		return (
			<img
				className="viewer-image"
				src={image.src}
				width={image.width}
				height={image.height}
				alt={`${column}, row ${row}`}
				loading="lazy"
			/>
		);
	}
	const sources = type === "Audio" ? audioSources(cell) : undefined;
	if (sources === undefined) return <>{cellText(cell)}</>;
	return (
		<audio controls preload="none" aria-label={`${column}, row ${row}`}>
			{sources.map((source) => (
				<source key={source.src} src={source.src} {...(source.type ? { type: source.type } : {})} />
			))}
		</audio>
	);
}

export default function ViewerPane({ datasetId }: { datasetId: string }) {
	const api = useApiOptions();
	const [params, setParams] = useSearchParams();
	const splits = useResource((signal) => viewerSplits(datasetId, { ...api, signal }), [datasetId, api]);
	if (splits.status === "loading") return <Loading label="Loading the splits" />;
	if (splits.status === "error")
		return <ErrorNotice title="The viewer cannot show this dataset">{splits.error.message}</ErrorNotice>;
	const all = splits.data.splits;
	if (all.length === 0) return <p className="muted">The viewer has no split of this dataset to show.</p>;
	const chosen =
		all.find((item) => item.config === params.get("config") && item.split === params.get("split")) ?? all[0]!;
	const offset = Math.max(0, Math.floor(Number(params.get("offset")) || 0));
	const query = params.get("q") ?? "";
	const where = params.get("where") ?? "";
	const go = (patch: Record<string, string>) => {
		const next = new URLSearchParams(params);
		for (const [key, value] of Object.entries(patch)) {
			if (value) next.set(key, value);
			else next.delete(key);
		}
		setParams(next);
	};
	return (
		<RowsView
			key={`${chosen.config}\n${chosen.split}\n${query}\n${where}`}
			datasetId={datasetId}
			choices={all.map((item) => `${item.config}/${item.split}`)}
			config={chosen.config}
			split={chosen.split}
			offset={offset}
			query={query}
			where={where}
			onPick={(value) => {
				const [config = "", split = ""] = value.split("/");
				go({ config, split, offset: "" });
			}}
			onSearch={(text) => go({ q: text.trim(), where: "", offset: "" })}
			onFilter={(clause) => go({ where: clause.trim(), q: "", offset: "" })}
			onOffset={(value) => go({ offset: value > 0 ? String(value) : "" })}
		/>
	);
}

function RowsView({
	datasetId,
	choices,
	config,
	split,
	offset,
	query,
	where,
	onPick,
	onSearch,
	onFilter,
	onOffset,
}: {
	datasetId: string;
	choices: string[];
	config: string;
	split: string;
	offset: number;
	query: string;
	where: string;
	onPick: (value: string) => void;
	onSearch: (text: string) => void;
	onFilter: (clause: string) => void;
	onOffset: (offset: number) => void;
}) {
	const api = useApiOptions();
	const ids = { split: useId(), search: useId(), filter: useId(), filterHelp: useId() };
	const [draft, setDraft] = useState(query);
	const [clause, setClause] = useState(where);
	const rows = useResource(
		(signal) => viewerRows({ dataset: datasetId, config, split, offset, query, where }, { ...api, signal }),
		[datasetId, config, split, offset, query, where, api],
	);
	return (
		<section className="viewer-pane" aria-labelledby="viewer-title">
			<h2 id="viewer-title" className="browse-heading">
				Data of {config}/{split}
			</h2>
			<div className="search-sort">
				<div className="field">
					<label htmlFor={ids.split}>Config and split</label>
					<select
						id={ids.split}
						className="input"
						value={`${config}/${split}`}
						onChange={(event) => onPick(event.target.value)}
					>
						{choices.map((choice) => (
							<option key={choice} value={choice}>
								{choice}
							</option>
						))}
					</select>
				</div>
				<form
					className="field field-grow"
					role="search"
					aria-label="Search the rows"
					onSubmit={(event) => {
						event.preventDefault();
						onSearch(draft);
					}}
				>
					<label htmlFor={ids.search}>Search this split</label>
					<input
						id={ids.search}
						type="search"
						className="input"
						value={draft}
						placeholder="Words in a text column, then Enter"
						onChange={(event) => setDraft(event.target.value)}
					/>
				</form>
				<form
					className="field field-grow viewer-filter"
					role="search"
					aria-label="Filter the rows"
					onSubmit={(event) => {
						event.preventDefault();
						onFilter(clause);
					}}
				>
					<label htmlFor={ids.filter}>Filter this split</label>
					<input
						id={ids.filter}
						type="search"
						className="input viewer-filter-input"
						value={clause}
						placeholder={`"column" >= 3 AND "text" ILIKE '%word%'`}
						aria-describedby={ids.filterHelp}
						spellCheck={false}
						onChange={(event) => setClause(event.target.value)}
					/>
					<p id={ids.filterHelp} className="muted field-hint">
						A SQL condition on double-quoted columns, then Enter
					</p>
				</form>
			</div>
			{rows.status === "loading" ? <Loading label="Loading rows" /> : null}
			{rows.status === "error" ? (
				<ErrorNotice title={where ? "The viewer refused this filter" : "Could not load the rows"}>
					{rows.error.message}
				</ErrorNotice>
			) : null}
			{rows.status === "ready" ? (
				<>
					<p className="muted" role="status" aria-live="polite">
						{rows.data.rows.length === 0
							? where
								? "No row matches this filter."
								: query
									? "No row matches this search."
									: "This split has no rows."
							: `Rows ${formatExactCount(offset + 1)}–${formatExactCount(offset + rows.data.rows.length)} of ${formatExactCount(rows.data.num_rows_total)}${where ? " matching" : query ? " found" : ""}.`}
					</p>
					{rows.data.rows.length > 0 ? (
						<div className="viewer-scroll" tabIndex={0} role="region" aria-label="Rows">
							<table className="viewer-table">
								<thead>
									<tr>
										<th scope="col">#</th>
										{rows.data.features.map((feature) => (
											<th key={feature.feature_idx} scope="col">
												{feature.name}
											</th>
										))}
									</tr>
								</thead>
								<tbody>
									{rows.data.rows.map((row) => (
										<tr key={row.row_idx}>
											<th scope="row">{row.row_idx}</th>
											{rows.data.features.map((feature) => (
												<td key={feature.feature_idx}>
													<Cell
														cell={row.row[feature.name] ?? null}
														column={feature.name}
														row={row.row_idx}
														type={feature.type._type}
													/>
												</td>
											))}
										</tr>
									))}
								</tbody>
							</table>
						</div>
					) : null}
					<nav aria-label="Rows pages" className="pagination">
						<button
							type="button"
							className="btn btn-secondary"
							disabled={offset === 0}
							onClick={() => onOffset(Math.max(0, offset - VIEWER_PAGE_ROWS))}
						>
							← Previous rows
						</button>
						<button
							type="button"
							className="btn btn-secondary"
							disabled={offset + rows.data.rows.length >= rows.data.num_rows_total}
							onClick={() => onOffset(offset + VIEWER_PAGE_ROWS)}
						>
							Next rows →
						</button>
					</nav>
				</>
			) : null}
		</section>
	);
}
