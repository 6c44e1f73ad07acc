import { useMemo, useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { countDatasets, listDatasets, type DatasetFilterQuery, type DatasetPage } from "../api/datasets";
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
import { browseHref } from "../view/browse";
import {
	DATASET_SORTS,
	datasetChips,
	datasetFilterQuery,
	datasetListQuery,
	FORMATS,
	LICENSES,
	MODALITIES,
	optionLabel,
	patchDatasetListState,
	readDatasetListState,
	SIZES,
	TAG_FILTER_LABELS,
	writeDatasetListState,
	type DatasetListState,
} from "../view/dataset-filters";
import { formatCount, formatExactCount, formatRelative } from "../view/format";
import { filterablePipelines, pipelineName } from "../view/pipelines";

const PAGE_SIZE = 20;

type Patch = Parameters<typeof patchDatasetListState>[1];

/** `/datasets`: the hub's datasets with the public hub's filters, search, sorts, total and cursor paging. */
export default function DatasetsPage() {
	useDocumentTitle("Datasets");
	const api = useApiOptions();
	const [params, setParams] = useSearchParams();
	const state = useMemo(() => readDatasetListState(params), [params]);
	const headingRef = useRef<HTMLHeadingElement>(null);
	const pages = useCursorPages(
		state.cursor,
		(cursor) => writeDatasetListState({ ...state, cursor }),
		headingRef,
	);
	const tasks = useMemo(() => filterablePipelines("datasets"), []);

	const update = (patch: Patch, options: { replace?: boolean } = {}) => {
		setParams(writeDatasetListState(patchDatasetListState(state, patch)), {
			replace: options.replace ?? false,
		});
	};

	// `state` is memoised on the URL's parameters, so a page is loaded again only when they change.
	const page = useResource<DatasetPage>(
		(signal) => listDatasets(datasetListQuery(state, PAGE_SIZE), { ...api, signal }),
		[state, api],
	);
	// Keyed by the filters' values: turning a page does not count the datasets again.
	const filtersJson = JSON.stringify(datasetFilterQuery(state));
	const filters = useMemo(() => JSON.parse(filtersJson) as DatasetFilterQuery, [filtersJson]);
	const total = useResource((signal) => countDatasets(filters, { ...api, signal }), [filters, api]);
	const chips = datasetChips(state, { task: pipelineName });
	const heading = state.tags.task_categories
		? `${pipelineName(state.tags.task_categories)} datasets`
		: "Datasets";

	return (
		<div className="models-page">
			<div className="models-heading">
				<h1 ref={headingRef} tabIndex={-1}>
					{heading}
				</h1>
				<p className="model-total" aria-live="polite" data-testid="dataset-total">
					{total.status === "ready"
						? `${formatExactCount(total.data.count)}${total.data.exact ? "" : "+"} ${total.data.count === 1 ? "dataset" : "datasets"}`
						: " "}
				</p>
			</div>
			<div className="models-layout">
				<DatasetFilters state={state} update={update} tasks={tasks} />
				<section className="models-results" aria-label="Datasets">
					<SearchAndSort
						what="datasets"
						search={state.search}
						sort={state.sort}
						sorts={DATASET_SORTS}
						placeholder="Filter by name, e.g. reviews"
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
								writeDatasetListState(
									patchDatasetListState(readDatasetListState(new URLSearchParams()), { sort: state.sort }),
								),
							)
						}
					/>
					{page.status === "loading" ? <Loading label="Loading datasets" /> : null}
					{page.status === "error" ? (
						<ErrorNotice title="Could not load datasets">{page.error.message}</ErrorNotice>
					) : null}
					{page.status === "ready" ? (
						<>
							<p className="muted" role="status" aria-live="polite">
								{page.data.datasets.length === 0
									? "No datasets match these filters."
									: `Showing ${page.data.datasets.length} ${page.data.datasets.length === 1 ? "dataset" : "datasets"}${pages.pageNumber > 1 ? ` (page ${pages.pageNumber})` : ""}.`}
							</p>
							<ul className="model-list">
								{page.data.datasets.map((dataset) => (
									<li key={dataset.id} className="card model-card">
										<h2 className="card-title model-id">
											<Link to={browseHref(dataset.id, { kind: "card" }, "dataset")}>{dataset.id}</Link>
											{dataset.private ? <span className="badge badge-private">Private</span> : null}
										</h2>
										<p className="model-meta">
											{facts(dataset.tags).map((fact) => (
												<Link key={fact.tag} to={fact.href}>
													{fact.label}
												</Link>
											))}
											{dataset.lastModified ? (
												<span>Updated {formatRelative(dataset.lastModified)}</span>
											) : null}
											<span>
												<span aria-hidden="true">↓ </span>
												{formatCount(dataset.downloads ?? 0)}{" "}
												<span className="visually-hidden">downloads</span>
											</span>
											<span>
												<span aria-hidden="true">♥ </span>
												{formatCount(dataset.likes ?? 0)} <span className="visually-hidden">likes</span>
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

/** The list card's facts: the first task, modality, format and size tags, each a link to that filter. */
function facts(tags: readonly string[] | undefined): Array<{ tag: string; label: string; href: string }> {
	const shown: Array<{ tag: string; label: string; href: string }> = [];
	for (const key of ["task_categories", "modality", "format", "size_categories"] as const) {
		const tag = tags?.find((candidate) => candidate.startsWith(`${key}:`));
		if (!tag) continue;
		const value = tag.slice(key.length + 1);
		const state = patchDatasetListState(readDatasetListState(new URLSearchParams()), {
			tags: { [key]: value },
		});
		shown.push({
			tag,
			label: key === "task_categories" ? pipelineName(value) : optionLabel(key, value),
			href: `/datasets?${writeDatasetListState(state).toString()}`,
		});
	}
	return shown;
}

function DatasetFilters({
	state,
	update,
	tasks,
}: {
	state: DatasetListState;
	update: (patch: Patch, options?: { replace?: boolean }) => void;
	tasks: Array<{ id: string; name: string }>;
}) {
	const select = (
		key: keyof DatasetListState["tags"],
		anyLabel: string,
		options: ReadonlyArray<{ value: string; label: string }>,
	) => (
		<SelectFilter
			label={TAG_FILTER_LABELS[key]}
			value={state.tags[key]}
			anyLabel={anyLabel}
			options={options}
			onChange={(value) => update({ tags: { [key]: value } })}
		/>
	);
	return (
		<FilterPanel>
			{select(
				"task_categories",
				"All tasks",
				tasks.map((task) => ({ value: task.id, label: task.name })),
			)}
			{select("modality", "Any modality", MODALITIES)}
			{select("format", "Any format", FORMATS)}
			{select("size_categories", "Any size", SIZES)}
			{select(
				"license",
				"Any license",
				LICENSES.map((license) => ({ value: license, label: license })),
			)}
			<AuthorFilter author={state.author} onAuthor={(author, options) => update({ author }, options)} />
		</FilterPanel>
	);
}
