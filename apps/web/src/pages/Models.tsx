import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { LibraryInfo } from "@modelhub/hub/api";
import { listLibraries } from "../api/catalogue";
import { countModels, listModels, type ModelFilterQuery, type ModelPage } from "../api/models";
import {
	AuthorFilter,
	FilterChips,
	FilterPanel,
	Pagination,
	SearchAndSort,
	SelectFilter,
} from "../components/list/ListControls";
import { ErrorNotice, Loading } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useCursorPages } from "../hooks/useCursorPages";
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
	const headingRef = useRef<HTMLHeadingElement>(null);
	const pages = useCursorPages(state.cursor, (cursor) => writeListState({ ...state, cursor }), headingRef);
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

	// `state` is memoised on the URL's parameters, so a page is loaded again only when they change.
	const page = useResource<ModelPage>(
		(signal) => listModels(listQuery(state, PAGE_SIZE), { ...api, signal }),
		[state, api],
	);
	// Keyed by the filters' values: turning a page does not count the models again.
	const filtersJson = JSON.stringify(filterQuery(state));
	const filters = useMemo(() => JSON.parse(filtersJson) as ModelFilterQuery, [filtersJson]);
	const total = useResource((signal) => countModels(filters, { ...api, signal }), [filters, api]);

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
				<ModelFilters
					state={state}
					update={update}
					pipelines={pipelines}
					libraries={libraries}
					providers={providers}
				/>
				<section className="models-results" aria-label="Models">
					<SearchAndSort
						what="models"
						search={state.search}
						sort={state.sort}
						sorts={MODEL_SORTS}
						placeholder="Filter by name, e.g. llama 3.3"
						onSearch={(search, options) => update({ search }, options)}
						onSort={(sort) => update({ sort })}
					/>
					<FilterChips
						chips={chips}
						onRemove={(index) => {
							const chip = chips[index];
							if (chip) update(chip.without);
						}}
						onClear={() =>
							setParams(
								writeListState(patchListState(readListState(new URLSearchParams()), { sort: state.sort })),
							)
						}
					/>
					{page.status === "loading" ? <Loading label="Loading models" /> : null}
					{page.status === "error" ? (
						<ErrorNotice title="Could not load models">{page.error.message}</ErrorNotice>
					) : null}
					{page.status === "ready" ? (
						<>
							<p className="muted" role="status" aria-live="polite">
								{page.data.models.length === 0
									? "No models match these filters."
									: `Showing ${page.data.models.length} ${page.data.models.length === 1 ? "model" : "models"}${pages.pageNumber > 1 ? ` (page ${pages.pageNumber})` : ""}.`}
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
							<Pagination
								hasPrevious={pages.hasPrevious}
								hasNext={page.data.nextCursor !== undefined}
								onPrevious={pages.previousPage}
								onNext={() => page.data.nextCursor && pages.nextPage(page.data.nextCursor)}
							/>
						</>
					) : null}
				</section>
			</div>
		</div>
	);
}

type Update = (patch: Partial<ModelListState>, options?: { replace?: boolean }) => void;

function ModelFilters({
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
	return (
		<FilterPanel>
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
			<AuthorFilter author={state.author} onAuthor={(author, options) => update({ author }, options)} />
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
		</FilterPanel>
	);
}
