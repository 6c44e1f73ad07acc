import { useEffect, useId, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import LIBRARY_INDEX from "virtual:library-index";
import { listLibraries } from "../api/catalogue";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { formatCount } from "../view/format";
import {
	describeDownloadRule,
	filterLibraries,
	libraryRows,
	sortLibraries,
	type LibrarySortKey,
	type SortDirection,
} from "../view/libraries";
import { TableScroll } from "../components/TableScroll";

const COLUMNS: Array<{ key: LibrarySortKey | undefined; label: string }> = [
	{ key: "prettyLabel", label: "Library" },
	{ key: undefined, label: "Links" },
	{ key: "filter", label: "In filters" },
	{ key: undefined, label: "Counts as a download" },
	{ key: "modelCount", label: "Models" },
];

export default function LibrariesPage() {
	useDocumentTitle("Libraries");
	const api = useApiOptions();
	const [params, setParams] = useSearchParams();
	const query = params.get("q") ?? "";
	const sortKey = (params.get("sort") as LibrarySortKey | null) ?? "prettyLabel";
	const direction: SortDirection = params.get("dir") === "descending" ? "descending" : "ascending";
	const [counts, setCounts] = useState<Map<string, number>>(new Map());
	const searchId = useId();

	useEffect(() => {
		const controller = new AbortController();
		listLibraries({ ...api, signal: controller.signal }).then(
			(list) => setCounts(new Map(list.map((library) => [library.key, library.modelCount]))),
			() => undefined,
		);
		return () => controller.abort();
	}, [api]);

	const rows = useMemo(() => libraryRows(LIBRARY_INDEX, counts), [counts]);
	const shown = useMemo(
		() => sortLibraries(filterLibraries(rows, query), sortKey, direction),
		[rows, query, sortKey, direction],
	);

	const update = (patch: Record<string, string>) => {
		const next = new URLSearchParams(params);
		for (const [key, value] of Object.entries(patch)) {
			if (value) next.set(key, value);
			else next.delete(key);
		}
		setParams(next, { replace: true });
	};

	const toggleSort = (key: LibrarySortKey) => {
		const nextDirection = key === sortKey && direction === "ascending" ? "descending" : "ascending";
		update({ sort: key, dir: nextDirection });
	};

	return (
		<>
			<h1>Libraries</h1>
			<p className="lead">
				{rows.length} libraries that load and run models: where they live, whether the model list offers them
				as a filter, and which file requests count as a download.
			</p>
			<div className="toolbar">
				<label htmlFor={searchId}>Search libraries</label>
				<input
					id={searchId}
					type="search"
					className="input"
					value={query}
					placeholder="e.g. transformers, audio, gguf"
					onChange={(event) => update({ q: event.target.value })}
				/>
				<p className="muted" role="status" aria-live="polite">
					{shown.length} of {rows.length} shown
				</p>
			</div>
			<TableScroll label="Libraries table">
				<table className="table libraries-table stack-on-phone">
					<caption className="visually-hidden">Libraries, sortable by the column buttons</caption>
					<thead>
						<tr>
							{COLUMNS.map((column) => {
								const active = column.key !== undefined && column.key === sortKey;
								return (
									<th
										key={column.label}
										scope="col"
										aria-sort={active ? direction : column.key ? "none" : undefined}
									>
										{column.key ? (
											<button
												type="button"
												className="sort-button"
												onClick={() => toggleSort(column.key as LibrarySortKey)}
											>
												{column.label}
												<span aria-hidden="true" className="sort-icon">
													{active ? (direction === "ascending" ? "▲" : "▼") : "↕"}
												</span>
											</button>
										) : (
											column.label
										)}
									</th>
								);
							})}
						</tr>
					</thead>
					<tbody>
						{shown.map((row) => (
							<tr key={row.key}>
								<th scope="row">
									<Link to={`/libraries/${encodeURIComponent(row.key)}`}>{row.prettyLabel}</Link>
									<div className="muted small">
										<code>{row.key}</code>
									</div>
								</th>
								<td data-label="Links">
									<a href={row.repoUrl}>{row.repoName}</a>
									{row.docsUrl ? (
										<>
											{" · "}
											<a href={row.docsUrl}>
												Docs<span className="visually-hidden"> for {row.prettyLabel}</span>
											</a>
										</>
									) : null}
								</td>
								<td data-label="In filters">{row.filter ? "Yes" : "No"}</td>
								<td data-label="Counts as a download" className="rule-cell">
									<code>{describeDownloadRule(row.countDownloads)}</code>
								</td>
								<td data-label="Models" className="numeric">
									{row.modelCount === undefined ? "–" : formatCount(row.modelCount)}
								</td>
							</tr>
						))}
					</tbody>
				</table>
			</TableScroll>
		</>
	);
}
