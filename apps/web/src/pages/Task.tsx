import type { ExampleRepo } from "@modelhub/tasks";
import { Link, useParams } from "react-router";
import index from "virtual:task-index";
import taskLoaders from "virtual:task-data";
import { listDatasets } from "../api/datasets";
import { DemoEntry } from "../components/Demo";
import { ErrorNotice, Loading, Notice } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { formatCount } from "../view/format";
import { modelHref } from "../view/model";
import {
	catalogueDatasets,
	datasetPageHref,
	taskDatasetsHref,
	taskDatasetsQuery,
} from "../view/task-datasets";
import { resolveTaskPage, type TaskPageData } from "../view/tasks";
import NotFound from "./NotFound";

export default function TaskPage() {
	const { id = "" } = useParams();
	const resolution = resolveTaskPage(id, index);
	useDocumentTitle(resolution.kind === "page" ? resolution.entry.label : resolution.label);

	if (resolution.kind === "none") {
		return (
			<NotFound
				title={resolution.label ? `${resolution.label} has no task page yet` : undefined}
				message={
					resolution.label ? "This pipeline type exists, but nobody has written its task page." : undefined
				}
			/>
		);
	}
	if (resolution.kind === "alias") {
		return (
			<>
				<Breadcrumbs label={resolution.label} />
				<h1>{resolution.label}</h1>
				<Notice>
					{resolution.label} has no page of its own: it is covered by{" "}
					{resolution.pages.map((page, position) => (
						<span key={page.id}>
							{position > 0 ? (position === resolution.pages.length - 1 ? " and " : ", ") : null}
							<Link to={`/tasks/${page.id}`}>{page.label}</Link>
						</span>
					))}
					.
				</Notice>
			</>
		);
	}
	return <LoadedTask key={resolution.entry.id} id={resolution.entry.id} canonical={resolution.canonical} />;
}

/** The task's own data is a small chunk of its own (see vite.config.ts), fetched with the page. */
function LoadedTask({ id, canonical }: { id: string; canonical?: { id: string; label: string } }) {
	const data = useResource<TaskPageData>(async () => {
		const load = taskLoaders[id];
		if (!load) throw new Error(`No data for the task ${id}.`);
		return (await load()).default;
	}, [id]);
	if (data.status === "loading") return <Loading label="Loading the task" />;
	if (data.status === "error")
		return <ErrorNotice title="Could not load the task">{data.error.message}</ErrorNotice>;
	return <TaskView data={data.data} canonical={canonical} />;
}

function Breadcrumbs({ label }: { label: string }) {
	return (
		<nav aria-label="Breadcrumb" className="breadcrumbs">
			<ol>
				<li>
					<Link to="/tasks">Tasks</Link>
				</li>
				<li aria-current="page">{label}</li>
			</ol>
		</nav>
	);
}

function TaskView({ data, canonical }: { data: TaskPageData; canonical?: { id: string; label: string } }) {
	const { task, libraryLabels } = data;
	const hasDemo = task.demo.inputs.length > 0 || task.demo.outputs.length > 0;
	return (
		<article className="task-page">
			<Breadcrumbs label={task.label} />
			<header className="page-header">
				<h1>{task.label}</h1>
				{task.summary ? <p className="lead">{task.summary}</p> : null}
				<div className="header-actions">
					<Link className="btn" to={`/models?pipeline_tag=${encodeURIComponent(task.id)}`}>
						Browse {task.label} models
					</Link>
					<Link className="btn" to={taskDatasetsHref(task.id)}>
						Browse {task.label} datasets
					</Link>
					{task.youtubeId ? (
						<a
							className="btn btn-secondary"
							href={`https://www.youtube.com/watch?v=${encodeURIComponent(task.youtubeId)}`}
						>
							Watch the video introduction
						</a>
					) : null}
				</div>
			</header>
			{task.isPlaceholder ? (
				<Notice tone="warning">
					This task is a placeholder: it has a pipeline type but no curated models, datasets or demo yet.
				</Notice>
			) : null}
			{canonical ? (
				<Notice>
					{task.label} shares its canonical pipeline type with{" "}
					<Link to={`/tasks/${canonical.id}`}>{canonical.label}</Link> (<code>{canonical.id}</code>): models
					for it may carry either tag.
				</Notice>
			) : null}

			{hasDemo ? (
				<section aria-labelledby="demo-title" className="section">
					<h2 id="demo-title">Demo</h2>
					<div className="demo-grid">
						<div className="demo-column">
							<h3 className="demo-heading">Inputs</h3>
							{task.demo.inputs.map((entry, index) => (
								<DemoEntry key={index} entry={entry} role="Input" />
							))}
						</div>
						<div className="demo-column">
							<h3 className="demo-heading">Outputs</h3>
							{task.demo.outputs.map((entry, index) => (
								<DemoEntry key={index} entry={entry} role="Output" />
							))}
						</div>
					</div>
				</section>
			) : null}

			<div className="two-columns">
				<RepoSection
					title="Recommended models"
					id="models"
					repos={task.models}
					link={(repo) => modelHref(repo.id)}
				/>
				<TaskDatasets task={task} />
				<RepoSection title="Metrics" id="metrics" repos={task.metrics} />
				<RepoSection title="Apps" id="apps" repos={task.spaces} />
			</div>

			{task.libraries.length > 0 ? (
				<section aria-labelledby="libraries-title" className="section">
					<h2 id="libraries-title">Libraries</h2>
					<ul className="chip-grid">
						{task.libraries.map((key) => (
							<li key={key}>
								<Link className="task-chip" to={`/libraries/${encodeURIComponent(key)}`}>
									{libraryLabels[key] ?? key}
								</Link>
							</li>
						))}
					</ul>
				</section>
			) : null}
		</article>
	);
}

/**
 * The task's datasets: the catalogue's suggestions (linked to their pages when this hub holds them), then
 * the hub's own datasets filed under the task (their cards' `task_categories`), each linked to its page.
 */
function TaskDatasets({ task }: { task: Pick<TaskPageData["task"], "id" | "label" | "datasets"> }) {
	const api = useApiOptions();
	const held = useResource(
		(signal) => listDatasets(taskDatasetsQuery(task.id), { ...api, signal }),
		[task.id, api],
	);
	const datasets = held.status === "ready" ? held.data.datasets : [];
	return (
		<>
			<RepoSection title="Datasets" id="datasets" repos={catalogueDatasets(task.datasets, datasets)} />
			<section aria-labelledby="hub-datasets-title" className="section repo-section">
				<h2 id="hub-datasets-title">Datasets on this hub</h2>
				{held.status === "loading" ? <Loading label="Loading this hub's datasets" /> : null}
				{held.status === "error" ? (
					<p className="muted">Could not list this hub's datasets: {held.error.message}</p>
				) : null}
				{held.status === "ready" && datasets.length === 0 ? (
					<p className="muted">
						No dataset on this hub is filed under {task.label} yet: a dataset card lists its tasks under{" "}
						<code>task_categories</code>.
					</p>
				) : null}
				{datasets.length > 0 ? (
					<ul className="repo-list" aria-label={`${task.label} datasets on this hub`}>
						{datasets.map((dataset) => (
							<li key={dataset.id} className="repo-item">
								<Link to={datasetPageHref(dataset.id)} className="repo-id">
									{dataset.id}
								</Link>
								{dataset.private ? <span className="badge badge-private">Private</span> : null}
								<p className="repo-description">
									{dataset.description ? `${dataset.description} · ` : null}
									{formatCount(dataset.downloads ?? 0)} downloads
								</p>
							</li>
						))}
					</ul>
				) : null}
				{held.status === "ready" && held.data.nextCursor !== undefined ? (
					<p>
						<Link to={taskDatasetsHref(task.id)}>All {task.label} datasets on this hub</Link>
					</p>
				) : null}
			</section>
		</>
	);
}

function RepoSection({
	title,
	id,
	repos,
	link,
}: {
	title: string;
	id: string;
	repos: Array<ExampleRepo & { href?: string }>;
	link?: (repo: ExampleRepo) => string;
}) {
	if (repos.length === 0) return null;
	return (
		<section aria-labelledby={`${id}-title`} className="section repo-section">
			<h2 id={`${id}-title`}>{title}</h2>
			<ul className="repo-list">
				{repos.map((repo) => {
					const href = link ? link(repo) : repo.href;
					return (
						<li key={repo.id} className="repo-item">
							{href ? (
								<Link to={href} className="repo-id">
									{repo.id}
								</Link>
							) : (
								<span className="repo-id">{repo.id}</span>
							)}
							<p className="repo-description">{repo.description}</p>
						</li>
					);
				})}
			</ul>
		</section>
	);
}
