import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import type { LibraryInfo } from "@modelhub/hub/api";
import { listLibraries } from "../api/catalogue";
import { countModels, listModels, type ModelPage } from "../api/models";
import { ErrorNotice, Loading } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDebouncedDraft } from "../hooks/useDebounced";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { formatCount, formatExactCount, formatRelative } from "../view/format";
import { modelHref } from "../view/model";
import {
	activeChips,
	filterQuery,
	languageName,
	LANGUAGES,
	LICENSES,
	listQuery,
	MODEL_SORTS,
	patchListState,
	readListState,
	writeListState,
	type ModelListState,
} from "../view/model-filters";
import { filterablePipelines, pipelineName } from "../view/pipelines";
import { providerLabel, providerOptions } from "../view/providers";

const PAGE_SIZE = 20;
/** Typing pauses this long before the list follows the search box. */
const SEARCH_DEBOUNCE_MS = 300;
/** Tags people often narrow by, offered as links in the filter panel. */
const POPULAR_TAGS = [
	"conversational",
	"gguf",
	"safetensors",
	"lora",
	"mlx",
	"onnx",
	"custom_code",
	"text-embeddings-inference",
];

export default function ModelsPage() {
	useDocumentTitle("Models");
	const api = useApiOptions();
	const [params, setParams] = useSearchParams();
	const state = useMemo(() => readListState(params), [params]);
	const [libraries, setLibraries] = useState<LibraryInfo[]>([]);
	// Cursors of the pages before the current one, so "Previous" can go back without offsets. They live in
	// the history entry, so Back and reload restore the page number with the page.
	const previous = previousCursors(useLocation().state);
	const headingRef = useRef<HTMLHeadingElement>(null);
	const pipelines = useMemo(() => filterablePipelines(), []);
	const providers = useMemo(() => providerOptions(), []);

	useEffect(() => {
		const controller = new AbortController();
		listLibraries({ ...api, signal: controller.signal }).then(
			(list) => setLibraries(list.filter((item) => item.filter || item.modelCount > 0)),
			() => undefined,
		);
		return () => controller.abort();
	}, [api]);

	const update = (patch: Partial<ModelListState>, options: { replace?: boolean } = {}) => {
		setParams(writeListState(patchListState(state, patch)), { replace: options.replace ?? false });
	};

	const queryKey = writeListState({ ...state, cursor: "" }).toString();
	const page = useResource<ModelPage>(
		(signal) => listModels(listQuery(state, PAGE_SIZE), { ...api, signal }),
		[queryKey, state.cursor, api.baseUrl],
	);
	const filtersKey = new URLSearchParams(
		Object.entries(filterQuery(state)).flatMap(([key, value]) =>
			(Array.isArray(value) ? value : [value]).map((item) => [key, String(item)]),
		),
	).toString();
	const total = useResource(
		(signal) => countModels(filterQuery(state), { ...api, signal }),
		[filtersKey, api.baseUrl],
	);

	const goTo = (cursor: string | undefined, back: boolean) => {
		setParams(writeListState({ ...state, cursor: cursor ?? "" }), {
			state: { previous: back ? previous.slice(0, -1) : [...previous, state.cursor] },
		});
		// The buttons sit below the list: the new page is read from its top, as after a page load.
		window.scrollTo(0, 0);
		headingRef.current?.focus({ preventScroll: true });
	};

	const libraryLabel = (key: string) => libraries.find((item) => item.key === key)?.prettyLabel ?? key;
	const chips = activeChips(state, { task: pipelineName, library: libraryLabel, provider: providerLabel });
	const heading = state.pipelineTag ? `${pipelineName(state.pipelineTag)} models` : "Models";

	return (
		<div className="models-page">
			<div className="models-heading">
				<h1 ref={headingRef} tabIndex={-1}>
					{heading}
				</h1>
				<p className="model-total" aria-live="polite" data-testid="model-total">
					{total.status === "ready"
						? `${formatExactCount(total.data.count)}${total.data.exact ? "" : "+"} ${total.data.count === 1 ? "model" : "models"}`
						: " "}
				</p>
			</div>
			<div className="models-layout">
				<FilterPanel
					state={state}
					update={update}
					pipelines={pipelines}
					libraries={libraries}
					providers={providers}
				/>
				<section className="models-results" aria-label="Models">
					<SearchAndSort state={state} update={update} />
					{chips.length > 0 ? (
						<ul className="chip-list" aria-label="Active filters">
							{chips.map((chip) => (
								<li key={chip.label}>
									<button
										type="button"
										className="chip chip-removable"
										aria-label={`Remove filter ${chip.label}`}
										onClick={() => update(chip.without)}
									>
										{chip.label} <span aria-hidden="true">×</span>
									</button>
								</li>
							))}
							<li>
								<button
									type="button"
									className="btn btn-small btn-secondary"
									onClick={() =>
										setParams(
											writeListState(
												patchListState(readListState(new URLSearchParams()), { sort: state.sort }),
											),
										)
									}
								>
									Clear all
								</button>
							</li>
						</ul>
					) : null}
					{page.status === "loading" ? <Loading label="Loading models" /> : null}
					{page.status === "error" ? (
						<ErrorNotice title="Could not load models">{page.error.message}</ErrorNotice>
					) : null}
					{page.status === "ready" ? (
						<>
							<p className="muted" role="status" aria-live="polite">
								{page.data.models.length === 0
									? "No models match these filters."
									: `Showing ${page.data.models.length} ${page.data.models.length === 1 ? "model" : "models"}${previous.length > 0 ? ` (page ${previous.length + 1})` : ""}.`}
							</p>
							<ul className="model-list">
								{page.data.models.map((model) => (
									<li key={model.id} className="card model-card">
										<h2 className="card-title model-id">
											<Link to={modelHref(model.id)}>{model.id}</Link>
											{model.private ? <span className="badge badge-private">Private</span> : null}
										</h2>
										<p className="model-meta">
											{model.pipeline_tag ? (
												<Link to={`/models?pipeline_tag=${encodeURIComponent(model.pipeline_tag)}`}>
													{pipelineName(model.pipeline_tag)}
												</Link>
											) : null}
											{model.library_name ? (
												<Link to={`/models?library=${encodeURIComponent(model.library_name)}`}>
													{libraryLabel(model.library_name)}
												</Link>
											) : null}
											{model.lastModified ? <span>Updated {formatRelative(model.lastModified)}</span> : null}
											<span>
												<span aria-hidden="true">↓ </span>
												{formatCount(model.downloads)} <span className="visually-hidden">downloads</span>
											</span>
											<span>
												<span aria-hidden="true">♥ </span>
												{formatCount(model.likes)} <span className="visually-hidden">likes</span>
											</span>
										</p>
									</li>
								))}
							</ul>
							<nav aria-label="Pagination" className="pagination">
								<button
									type="button"
									className="btn btn-secondary"
									disabled={previous.length === 0 && !state.cursor}
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
				</section>
			</div>
		</div>
	);
}

/** The cursor stack kept in a history entry's state by the pagination buttons (none on other entries). */
function previousCursors(historyState: unknown): string[] {
	if (typeof historyState !== "object" || historyState === null || !("previous" in historyState)) return [];
	const { previous } = historyState;
	return Array.isArray(previous)
		? previous.filter((cursor): cursor is string => typeof cursor === "string")
		: [];
}

type Update = (patch: Partial<ModelListState>, options?: { replace?: boolean }) => void;

/** The search box follows typing (debounced, replacing the history entry) and the sort order. */
function SearchAndSort({ state, update }: { state: ModelListState; update: Update }) {
	const ids = { search: useId(), sort: useId() };
	const [draft, type] = useDebouncedDraft(
		state.search,
		(text) => {
			if (text.trim() !== state.search.trim()) update({ search: text }, { replace: true });
		},
		SEARCH_DEBOUNCE_MS,
	);
	return (
		<form
			className="search-sort"
			role="search"
			aria-label="Model search"
			onSubmit={(event) => {
				event.preventDefault();
				update({ search: draft });
			}}
		>
			<div className="field field-grow">
				<label htmlFor={ids.search}>Search models</label>
				<input
					id={ids.search}
					type="search"
					className="input"
					value={draft}
					placeholder="Filter by name, e.g. llama 3.3"
					autoComplete="off"
					onChange={(event) => type(event.target.value)}
				/>
			</div>
			<div className="field">
				<label htmlFor={ids.sort}>Sort</label>
				<select
					id={ids.sort}
					className="input"
					value={state.sort}
					onChange={(event) => update({ sort: event.target.value as ModelListState["sort"] })}
				>
					{MODEL_SORTS.map((option) => (
						<option key={option.value} value={option.value}>
							{option.label}
						</option>
					))}
				</select>
			</div>
		</form>
	);
}

function SelectFilter({
	label,
	value,
	anyLabel,
	options,
	onChange,
}: {
	label: string;
	value: string;
	anyLabel: string;
	options: Array<{ value: string; label: string }>;
	onChange: (value: string) => void;
}) {
	const id = useId();
	// A value from a link that the list does not offer is still shown (and can be cleared).
	const known = !value || options.some((option) => option.value === value);
	return (
		<div className="field">
			<label htmlFor={id}>{label}</label>
			<select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)}>
				<option value="">{anyLabel}</option>
				{known ? null : <option value={value}>{value}</option>}
				{options.map((option) => (
					<option key={option.value} value={option.value}>
						{option.label}
					</option>
				))}
			</select>
		</div>
	);
}

function AuthorFilter({ state, update }: { state: ModelListState; update: Update }) {
	const id = useId();
	const [draft, type] = useDebouncedDraft(
		state.author,
		(text) => {
			// Only whole names the hub accepts are sent; a half-typed one with a space waits.
			if (text.trim() !== state.author && /^[A-Za-z0-9][A-Za-z0-9._-]*$|^$/.test(text.trim())) {
				update({ author: text.trim() }, { replace: true });
			}
		},
		SEARCH_DEBOUNCE_MS,
	);
	return (
		<div className="field">
			<label htmlFor={id}>Author</label>
			<input
				id={id}
				className="input"
				value={draft}
				placeholder="User or organisation"
				autoComplete="off"
				onChange={(event) => type(event.target.value)}
			/>
		</div>
	);
}

function FilterPanel({
	state,
	update,
	pipelines,
	libraries,
	providers,
}: {
	state: ModelListState;
	update: Update;
	pipelines: Array<{ id: string; name: string }>;
	libraries: LibraryInfo[];
	providers: Array<{ id: string; label: string }>;
}) {
	const body: ReactNode = (
		<div className="filter-fields">
			<SelectFilter
				label="Task"
				value={state.pipelineTag}
				anyLabel="All tasks"
				options={pipelines.map((pipeline) => ({ value: pipeline.id, label: pipeline.name }))}
				onChange={(value) => update({ pipelineTag: value })}
			/>
			<SelectFilter
				label="Library"
				value={state.library}
				anyLabel="All libraries"
				options={libraries.map((library) => ({ value: library.key, label: library.prettyLabel }))}
				onChange={(value) => update({ library: value })}
			/>
			<SelectFilter
				label="Inference provider"
				value={state.provider}
				anyLabel="Any or none"
				options={providers.map((provider) => ({ value: provider.id, label: provider.label }))}
				onChange={(value) => update({ provider: value })}
			/>
			<AuthorFilter state={state} update={update} />
			<SelectFilter
				label="License"
				value={state.license}
				anyLabel="Any license"
				options={LICENSES.map((license) => ({ value: license, label: license }))}
				onChange={(value) => update({ license: value })}
			/>
			<SelectFilter
				label="Language"
				value={state.language}
				anyLabel="Any language"
				options={LANGUAGES.map((code) => ({ value: code, label: languageName(code) }))}
				onChange={(value) => update({ language: value })}
			/>
			<div className="field">
				<span className="field-label" id="popular-tags">
					Tags
				</span>
				<ul className="chip-list" aria-labelledby="popular-tags">
					{POPULAR_TAGS.map((tag) => {
						const active = state.tags.includes(tag);
						const next = new URLSearchParams(
							writeListState(
								patchListState(state, {
									tags: active ? state.tags.filter((other) => other !== tag) : [...state.tags, tag],
								}),
							),
						);
						return (
							<li key={tag}>
								<Link
									className="chip"
									to={`/models?${next.toString()}`}
									aria-current={active ? "true" : undefined}
								>
									{tag}
								</Link>
							</li>
						);
					})}
				</ul>
			</div>
		</div>
	);
	// Open beside the list on wide screens; on a phone, folded, so the search box and the list come first.
	const [open] = useState(() => window.matchMedia?.("(min-width: 900px)").matches ?? true);
	return (
		<aside className="filter-panel" aria-label="Filters">
			<details className="filter-details" open={open}>
				<summary>Filters</summary>
				{body}
			</details>
		</aside>
	);
}
