import { useEffect, useId, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { listLibraries, type LibraryInfo } from "../api/catalogue";
import { listModels, type ModelPage, type ModelSort } from "../api/models";
import { ErrorNotice, Loading } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { formatCount, formatRelative } from "../view/format";
import { modelHref } from "../view/model";
import { filterablePipelines, pipelineName } from "../view/pipelines";

const PAGE_SIZE = 20;
const SORTS: Array<{ value: ModelSort; label: string }> = [
	{ value: "downloads", label: "Most downloads" },
	{ value: "likes", label: "Most likes" },
	{ value: "lastModified", label: "Recently updated" },
	{ value: "id", label: "Name (A–Z)" },
];

export default function ModelsPage() {
	useDocumentTitle("Models");
	const api = useApiOptions();
	const [params, setParams] = useSearchParams();
	const search = params.get("search") ?? "";
	const pipelineTag = params.get("pipeline_tag") ?? "";
	const library = params.get("library") ?? "";
	const sort = (SORTS.find((option) => option.value === params.get("sort"))?.value ??
		"downloads") as ModelSort;
	const cursor = params.get("cursor") ?? "";
	const [draft, setDraft] = useState(search);
	const [libraries, setLibraries] = useState<LibraryInfo[]>([]);
	// Cursors of the pages before the current one, so "Previous" can go back without offsets.
	const [previous, setPrevious] = useState<string[]>([]);
	const ids = { search: useId(), task: useId(), library: useId(), sort: useId() };
	const pipelines = useMemo(() => filterablePipelines(), []);

	useEffect(() => setDraft(search), [search]);
	useEffect(() => {
		listLibraries(api).then(
			(list) => setLibraries(list.filter((item) => item.filter || item.modelCount > 0)),
			() => setLibraries([]),
		);
	}, [api]);

	const page = useResource<ModelPage>(
		(signal) =>
			listModels(
				{
					search,
					pipeline_tag: pipelineTag || undefined,
					library: library || undefined,
					sort,
					direction: sort === "id" ? 1 : -1,
					limit: PAGE_SIZE,
					cursor: cursor || undefined,
				},
				{ ...api, signal },
			),
		[search, pipelineTag, library, sort, cursor, api.baseUrl],
	);

	const setFilters = (patch: Record<string, string>) => {
		const next = new URLSearchParams(params);
		for (const [key, value] of Object.entries(patch)) {
			if (value) next.set(key, value);
			else next.delete(key);
		}
		next.delete("cursor");
		setPrevious([]);
		setParams(next);
	};

	const goTo = (nextCursor: string | undefined, back: boolean) => {
		const next = new URLSearchParams(params);
		if (nextCursor) next.set("cursor", nextCursor);
		else next.delete("cursor");
		setPrevious((stack) => (back ? stack.slice(0, -1) : [...stack, cursor]));
		setParams(next);
	};

	const heading = pipelineTag ? `${pipelineName(pipelineTag)} models` : "Models";

	return (
		<>
			<h1>{heading}</h1>
			<form
				className="filters"
				role="search"
				aria-label="Filter models"
				onSubmit={(event) => {
					event.preventDefault();
					setFilters({ search: draft.trim() });
				}}
			>
				<div className="field field-grow">
					<label htmlFor={ids.search}>Search</label>
					<div className="input-row">
						<input
							id={ids.search}
							type="search"
							className="input"
							value={draft}
							placeholder="Model name or author"
							onChange={(event) => setDraft(event.target.value)}
						/>
						<button type="submit" className="btn">
							Search
						</button>
					</div>
				</div>
				<div className="field">
					<label htmlFor={ids.task}>Task</label>
					<select
						id={ids.task}
						className="input"
						value={pipelineTag}
						onChange={(event) => setFilters({ pipeline_tag: event.target.value })}
					>
						<option value="">All tasks</option>
						{pipelines.map((pipeline) => (
							<option key={pipeline.id} value={pipeline.id}>
								{pipeline.name}
							</option>
						))}
					</select>
				</div>
				<div className="field">
					<label htmlFor={ids.library}>Library</label>
					<select
						id={ids.library}
						className="input"
						value={library}
						onChange={(event) => setFilters({ library: event.target.value })}
					>
						<option value="">All libraries</option>
						{library && !libraries.some((item) => item.key === library) ? (
							<option value={library}>{library}</option>
						) : null}
						{libraries.map((item) => (
							<option key={item.key} value={item.key}>
								{item.prettyLabel}
							</option>
						))}
					</select>
				</div>
				<div className="field">
					<label htmlFor={ids.sort}>Sort</label>
					<select
						id={ids.sort}
						className="input"
						value={sort}
						onChange={(event) => setFilters({ sort: event.target.value })}
					>
						{SORTS.map((option) => (
							<option key={option.value} value={option.value}>
								{option.label}
							</option>
						))}
					</select>
				</div>
			</form>

			{page.status === "loading" ? <Loading label="Loading models" /> : null}
			{page.status === "error" ? (
				<ErrorNotice title="Could not load models">{page.error.message}</ErrorNotice>
			) : null}
			{page.status === "ready" ? (
				<>
					<p className="muted" role="status" aria-live="polite">
						{page.data.models.length === 0
							? "No models match these filters."
							: `Showing ${page.data.models.length} models${previous.length > 0 ? ` (page ${previous.length + 1})` : ""}.`}
					</p>
					<ul className="model-list">
						{page.data.models.map((model) => (
							<li key={model.id} className="card model-card">
								<h2 className="card-title model-id">
									<Link to={modelHref(model.id)}>{model.id}</Link>
								</h2>
								<p className="model-meta">
									{model.pipeline_tag ? <span>{pipelineName(model.pipeline_tag)}</span> : null}
									{model.library_name ? <span>{model.library_name}</span> : null}
									<span>
										<span aria-hidden="true">↓ </span>
										{formatCount(model.downloads)} <span className="visually-hidden">downloads</span>
									</span>
									<span>
										<span aria-hidden="true">♥ </span>
										{formatCount(model.likes)} <span className="visually-hidden">likes</span>
									</span>
									{model.lastModified ? <span>Updated {formatRelative(model.lastModified)}</span> : null}
								</p>
							</li>
						))}
					</ul>
					<nav aria-label="Pagination" className="pagination">
						<button
							type="button"
							className="btn btn-secondary"
							disabled={previous.length === 0 && !cursor}
							onClick={() => goTo(previous[previous.length - 1], true)}
						>
							← Previous
						</button>
						<button
							type="button"
							className="btn btn-secondary"
							disabled={!page.data.nextCursor}
							onClick={() => goTo(page.data.nextCursor, false)}
						>
							Next →
						</button>
					</nav>
				</>
			) : null}
		</>
	);
}
