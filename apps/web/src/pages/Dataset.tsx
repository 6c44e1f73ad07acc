/**
 * A dataset's page, `/datasets/{id}` and its browsing addresses (`/datasets/{id}/tree/{rev}/{path}`,
 * `/blob/…`, `/commits/…`, `/commit/…`, as the public hub's): the header's facts, "Use this dataset",
 * the card, and "Files and versions" with the model page's own browsing, upload and editing components,
 * which address the dataset through RepoTypeContext.
 */
import { lazy, Suspense, useCallback, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import type { DatasetAnswer } from "@modelhub/hub/api";
import { useHubSession } from "../account/session";
import { getDataset } from "../api/datasets";
import { ApiError, encodeModelId, type ApiOptions } from "../api/http";
import { getModelCard } from "../api/models";
import { RepoBrowser } from "../components/browse/RepoBrowser";
import { CreateCard } from "../components/browse/CreateCard";
import { MirroredBadge } from "../components/Badges";
import { CopyButton } from "../components/CopyButton";
import { LikeButton } from "../components/model/LikeButton";
import { UseDialog } from "../components/UseDialog";
import { ErrorNotice, Loading } from "../components/Status";
import { Tabs } from "../components/Tabs";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { RepoTypeContext } from "../hooks/useRepoType";
import { useResource } from "../hooks/useResource";
import { can } from "../view/account";
import {
	browseHref,
	browseTitle,
	filesViewOf,
	parseDatasetPath,
	openTab,
	communityViewOf,
	type BrowseView,
} from "../view/browse";
import { datasetTagLinks, TAG_FILTER_LABELS, type DatasetTagLink } from "../view/dataset-filters";
import { formatBytes, formatExactCount, formatRelative } from "../view/format";
import { splitModelId } from "../view/model";
import { pipelineName } from "../view/pipelines";
import NotFound from "./NotFound";
import { EditCardLink } from "../components/model/EditCardLink";

const ModelCard = lazy(() => import("../components/model/ModelCard"));
const loadUseDataset = () => import("../components/dataset/UseDataset");
const UseDataset = lazy(loadUseDataset);
const ViewerPane = lazy(() => import("../components/dataset/ViewerPane"));
const Community = lazy(() => import("../components/community/Community"));
const SettingsTab = lazy(() =>
	import("../components/model/SettingsTab").then((module) => ({ default: module.SettingsTab })),
);
// Only gated datasets show the request form: its code loads with it.
const GatedAccess = lazy(() =>
	import("../components/model/GatedAccess").then((module) => ({ default: module.GatedAccess })),
);

export default function DatasetPage() {
	const browsed = parseDatasetPath(useLocation().pathname);
	const id = browsed?.id ?? "";
	const view = browsed?.view ?? { kind: "card" };
	const api = useApiOptions();
	const dataset = useResource((signal) => getDataset(id, { ...api, signal }), [id, api]);
	useDocumentTitle(dataset.status === "error" ? "Dataset not found" : browseTitle(id, view));

	if (browsed === undefined) return <NotFound />;
	if (dataset.status === "loading") return <Loading label="Loading dataset" />;
	if (dataset.status === "error") {
		const error = dataset.error;
		if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
			const hint = api.token
				? " If it is private, your account is not one of its owners."
				: " If it is one of your private datasets, sign in to see it.";
			return <NotFound title="Dataset not found" message={`The hub has no dataset called “${id}”.${hint}`} />;
		}
		return <ErrorNotice title="Could not load the dataset">{error.message}</ErrorNotice>;
	}
	return (
		<RepoTypeContext.Provider value="dataset">
			<DatasetView key={dataset.data.id} dataset={dataset.data} view={view} />
		</RepoTypeContext.Provider>
	);
}

function UseThisDataset({ dataset }: { dataset: DatasetAnswer }) {
	return (
		<UseDialog label="Use this dataset" title={`Use ${dataset.id}`} preload={loadUseDataset}>
			{() => (
				<Suspense fallback={<Loading label="Loading snippets" />}>
					<UseDataset dataset={dataset} />
				</Suspense>
			)}
		</UseDialog>
	);
}

/** The header's facts: each filter's tags (task, modality, format, size, license), as links to the list. */
function factGroups(links: readonly DatasetTagLink[]): Array<{ kind: string; links: DatasetTagLink[] }> {
	const groups: Array<{ kind: string; links: DatasetTagLink[] }> = [];
	for (const kind of Object.values(TAG_FILTER_LABELS)) {
		const found = links.filter((link) => link.kind === kind);
		if (found.length > 0) groups.push({ kind, links: found });
	}
	return groups;
}

function DatasetHeader({
	dataset,
	user,
	api,
}: {
	dataset: DatasetAnswer;
	user: string | undefined;
	api: ApiOptions;
}) {
	const { namespace, name } = splitModelId(dataset.id);
	const groups = factGroups(datasetTagLinks(dataset.tags, { task: pipelineName }));
	const bytes = dataset.siblings?.reduce((total, file) => total + (file.size ?? 0), 0);
	return (
		<header className="page-header model-header">
			<div className="model-title-row">
				<h1 className="model-title">
					<span className="dataset-kind">Dataset: </span>
					{namespace ? (
						<>
							<Link to={`/datasets?author=${encodeURIComponent(namespace)}`} className="model-namespace">
								{namespace}
							</Link>
							<span aria-hidden="true" className="model-slash">
								/
							</span>
						</>
					) : null}
					<span>{name}</span>
				</h1>
				<CopyButton text={dataset.id} label="Copy dataset id" />
				<LikeButton repoId={dataset.id} likes={dataset.likes ?? 0} user={user} api={api} />
				{dataset.private ? <span className="badge badge-private">Private</span> : null}
				{dataset.mirroredFrom ? (
					<MirroredBadge upstream={dataset.mirroredFrom} path={`datasets/${encodeModelId(dataset.id)}`} />
				) : null}
			</div>
			<ul className="model-facts" aria-label="Dataset facts">
				{groups.map((group) => (
					<li key={group.kind}>
						<span className="fact-kind">{group.kind}</span>
						{group.links.map((link, index) => (
							<span key={link.tag}>
								{index > 0 ? ", " : null}
								<Link to={link.href}>{link.label}</Link>
							</span>
						))}
					</li>
				))}
				{bytes !== undefined && bytes > 0 ? (
					<li>
						<span className="fact-kind">Size of files</span>
						<span>{formatBytes(bytes)}</span>
					</li>
				) : null}
				<li title="Downloads in the last 30 days">
					<span className="fact-kind">Downloads last month</span>
					<span>{formatExactCount(dataset.downloads)}</span>
				</li>
				{dataset.lastModified ? (
					<li>
						<span className="fact-kind">Updated</span>
						<span>{formatRelative(dataset.lastModified)}</span>
					</li>
				) : null}
			</ul>
			<div className="header-actions">
				<UseThisDataset dataset={dataset} />
			</div>
		</header>
	);
}

function CardTab({
	dataset,
	version,
	canWrite,
	onCommitted,
}: {
	dataset: DatasetAnswer;
	version: number;
	canWrite: boolean;
	onCommitted: () => void;
}) {
	const api = useApiOptions();
	// Asked for only when the files list one: a dataset of data files alone costs no 404.
	const hasCard = dataset.siblings?.some((file) => file.rfilename === "README.md") !== false;
	const card = useResource(
		(signal) => (hasCard ? getModelCard(dataset.id, { ...api, signal }) : Promise.resolve(undefined)),
		[dataset.id, api, hasCard],
		version,
	);
	// Tags the header does not show already (its filters' tags are there).
	const tags = datasetTagLinks(dataset.tags, { task: pipelineName }).filter(
		(link) => !Object.values(TAG_FILTER_LABELS).includes(link.kind ?? ""),
	);
	return (
		<div className="card-tab">
			{canWrite && card.status === "ready" && card.data !== undefined ? (
				<EditCardLink id={dataset.id} repoType="dataset" />
			) : null}
			{tags.length > 0 ? (
				<ul className="chip-list model-tags" aria-label="Tags">
					{tags.map((tag) => (
						<li key={tag.tag}>
							<Link className="chip" to={tag.href}>
								{tag.kind ? <span className="chip-kind">{tag.kind}: </span> : null}
								{tag.label}
							</Link>
						</li>
					))}
				</ul>
			) : null}
			{card.status === "loading" ? <Loading label="Loading the dataset card" /> : null}
			{card.status === "error" ? (
				<ErrorNotice title="Could not load the dataset card">{card.error.message}</ErrorNotice>
			) : null}
			{card.status === "ready" && card.data === undefined ? (
				<>
					<p className="muted">This dataset has no dataset card (README.md) yet.</p>
					{canWrite ? <CreateCard repoId={dataset.id} kind="dataset" onCommitted={onCommitted} /> : null}
				</>
			) : null}
			{card.status === "ready" && card.data !== undefined ? (
				<Suspense fallback={<Loading label="Rendering the dataset card" />}>
					<ModelCard markdown={card.data} modelId={dataset.id} cardData={undefined} />
				</Suspense>
			) : null}
		</div>
	);
}

/** The card's other tabs, by `?tab=` (the files tab is the browsing addresses themselves). */
const QUERY_TABS = new Set(["viewer", "settings"]);

/** The formats the hub's viewer reads, folders of audio and image files among them (packages/hub README, "Dataset viewer"). */
const VIEWABLE = /^format:(parquet|csv|json|audiofolder|imagefolder)$/;

function DatasetView({ dataset: loaded, view }: { dataset: DatasetAnswer; view: BrowseView }) {
	const api = useApiOptions();
	const [isPrivate, setIsPrivate] = useState(loaded.private === true);
	const [fresh, setFresh] = useState<DatasetAnswer>();
	const [version, setVersion] = useState(0);
	const dataset = { ...(fresh ?? loaded), private: isPrivate };
	// After a commit from the page the dataset is read again (files, tags: the header and the snippets).
	const onCommitted = useCallback(() => {
		setVersion((value) => value + 1);
		getDataset(loaded.id, api).then(setFresh, () => undefined);
	}, [loaded.id, api]);
	const arrival = (useLocation().state ?? {}) as { upload?: boolean };
	const navigate = useNavigate();
	const [params] = useSearchParams();
	const queryTab = params.get("tab");
	// Arriving from "Create dataset", the files tab opens with its upload form, as a new model's does.
	const tab = openTab(view, arrival.upload === true, queryTab, QUERY_TABS);
	const setTab = (next: string) => {
		if (next === "card") void navigate(browseHref(dataset.id, { kind: "card" }, "dataset"));
		else if (next === "files")
			void navigate(browseHref(dataset.id, { kind: "tree", revision: "main", path: "" }, "dataset"));
		else if (next === "community") void navigate(browseHref(dataset.id, { kind: "discussions" }, "dataset"));
		else void navigate(`${browseHref(dataset.id, { kind: "card" }, "dataset")}?tab=${next}`);
	};
	const account = useHubSession(api.baseUrl)?.account;
	const { namespace } = splitModelId(dataset.id);
	const canWrite = can(account, namespace, "write");
	const canAdmin = can(account, namespace, "admin");
	const tabs = [
		{
			id: "card",
			label: "Dataset card",
			content: <CardTab dataset={dataset} version={version} canWrite={canWrite} onCommitted={onCommitted} />,
		},
		...(dataset.tags?.some((tag) => VIEWABLE.test(tag))
			? [
					{
						id: "viewer",
						label: "Viewer",
						content: (
							<Suspense fallback={<Loading label="Loading the viewer" />}>
								<ViewerPane datasetId={dataset.id} />
							</Suspense>
						),
					},
				]
			: []),
		{
			id: "files",
			label: "Files and versions",
			content: (
				<RepoBrowser
					modelId={dataset.id}
					view={filesViewOf(view)}
					canWrite={canWrite}
					isPrivate={isPrivate}
					initialUpload={arrival.upload === true}
					onCommitted={onCommitted}
				/>
			),
		},
		{
			id: "community",
			label: "Community",
			content: (
				<Suspense fallback={<Loading label="Loading the community tab" />}>
					<Community repoId={dataset.id} view={communityViewOf(view)} />
				</Suspense>
			),
		},
		...(canAdmin
			? [
					{
						id: "settings",
						label: "Settings",
						content: (
							<Suspense fallback={<Loading label="Loading the settings" />}>
								<SettingsTab
									modelId={dataset.id}
									isPrivate={isPrivate}
									gated={dataset.gated ?? false}
									api={api}
									onChange={setIsPrivate}
								/>
							</Suspense>
						),
					},
				]
			: []),
	];
	return (
		<article className="model-page dataset-page">
			<DatasetHeader dataset={dataset} user={account?.name} api={api} />
			{dataset.gated ? (
				<Suspense fallback={null}>
					<GatedAccess modelId={dataset.id} api={api} />
				</Suspense>
			) : null}
			<Tabs label="Dataset" className="model-tabs" items={tabs} selected={tab} onSelect={setTab} />
		</article>
	);
}
