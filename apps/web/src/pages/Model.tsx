import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { useHubSession } from "../account/session";
import { LikeButton } from "../components/model/LikeButton";
import { GatedAccess } from "../components/model/GatedAccess";
import { ApiError, encodeModelId } from "../api/http";
import { getModel, getModelCard, takePrefetchedModel, type ModelDetail } from "../api/models";
import { MirroredBadge } from "../components/Badges";
import { CopyButton } from "../components/CopyButton";
import { UseDialog } from "../components/UseDialog";
import { RepoBrowser } from "../components/browse/RepoBrowser";
import { CreateCard } from "../components/browse/CreateCard";
import { preloadUseModel, useUseModelModule } from "../components/model/useModelLoader";
import { ErrorNotice, Loading } from "../components/Status";
import { Tabs } from "../components/Tabs";
import { useApiOptions } from "../hooks/useApiOptions";
import type { ApiOptions } from "../api/http";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { useMediaQuery } from "../hooks/useMediaQuery";
import { useWhenIdle } from "../hooks/useWhenIdle";
import {
	browseHref,
	browseTitle,
	filesViewOf,
	parseBrowsePath,
	openTab,
	communityViewOf,
	type BrowseView,
} from "../view/browse";
import { formatExactCount, formatRelative } from "../view/format";
import { can } from "../view/account";
import { ggufFacts, modelLicense, modelSize, parameterTypes, splitModelId } from "../view/model";
import { tagLinks } from "../view/model-filters";
import { pipelineName } from "../view/pipelines";
import NotFound from "./NotFound";
import { EditCardLink } from "../components/model/EditCardLink";

// The Markdown renderer and the sidebar (the providers and the playground, with the inference client)
// load on demand, after the page.
const ModelCard = lazy(() => import("../components/model/ModelCard"));
const ModelSidebar = lazy(() => import("../components/model/ModelSidebar"));
const Community = lazy(() => import("../components/community/Community"));
const SettingsTab = lazy(() =>
	import("../components/model/SettingsTab").then((module) => ({ default: module.SettingsTab })),
);

export default function ModelPage() {
	// The address says which model and which of its views (src/view/browse.ts): `/{id}`, `/{id}/tree/…`…
	const browsed = parseBrowsePath(useLocation().pathname);
	const id = browsed?.id ?? "";
	const view = browsed?.view ?? { kind: "card" };
	const api = useApiOptions();
	const model = useResource(
		(signal) => takePrefetchedModel(id, api.baseUrl, api.token) ?? getModel(id, { ...api, signal }),
		[id, api],
	);
	// A one-segment address that names no model names nothing at all (no account, namespace or model).
	const notFound = id.includes("/")
		? { title: "Model not found", message: `The hub has no model called “${id}”.` }
		: {
				title: "Not found",
				message: `The hub has no user, organisation, namespace or model called “${id}”.`,
			};
	useDocumentTitle(model.status === "error" ? notFound.title : browseTitle(id, view));

	if (browsed === undefined) return <NotFound />;
	if (model.status === "loading") return <Loading label="Loading model" />;
	if (model.status === "error") {
		const error = model.error;
		if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
			const hint = api.token
				? " If it is private, your account is not one of its owners."
				: " If it is one of your private models, sign in to see it.";
			return <NotFound title={notFound.title} message={`${notFound.message}${hint}`} />;
		}
		return <ErrorNotice title="Could not load the model">{error.message}</ErrorNotice>;
	}
	return <ModelView key={model.data.id} model={model.data} view={view} />;
}

function UseModelBody({ model }: { model: ModelDetail }) {
	const module = useUseModelModule();
	const Body = module?.default;
	return Body ? <Body model={model} /> : <Loading label="Loading snippets" />;
}

function UseThisModel({ model }: { model: ModelDetail }) {
	return (
		<UseDialog
			label="Use this model"
			title={`Use ${model.id}`}
			description="Code for the model's library, local apps and inference providers, where they apply."
			preload={preloadUseModel}
		>
			{() => <UseModelBody model={model} />}
		</UseDialog>
	);
}

function ModelHeader({
	model,
	user,
	api,
}: {
	model: ModelDetail;
	user: string | undefined;
	api: ApiOptions;
}) {
	const { namespace, name } = splitModelId(model.id);
	const license = modelLicense(model);
	const size = modelSize(model);
	const tensorTypes = parameterTypes(model);
	const gguf = ggufFacts(model);
	return (
		<header className="page-header model-header">
			<div className="model-title-row">
				<h1 className="model-title">
					{namespace ? (
						<>
							<Link to={`/models?author=${encodeURIComponent(namespace)}`} className="model-namespace">
								{namespace}
							</Link>
							<span aria-hidden="true" className="model-slash">
								/
							</span>
						</>
					) : null}
					<span>{name}</span>
				</h1>
				<CopyButton text={model.id} label="Copy model id" />
				<LikeButton repoId={model.id} likes={model.likes} user={user} api={api} />
				{model.private ? <span className="badge badge-private">Private</span> : null}
				{model.gated ? <span className="badge">Gated</span> : null}
				{model.mirroredFrom ? (
					<MirroredBadge upstream={model.mirroredFrom} path={encodeModelId(model.id)} />
				) : null}
			</div>
			<ul className="model-facts" aria-label="Model facts">
				{model.pipeline_tag ? (
					<li>
						<span className="fact-kind">Task</span>
						<Link to={`/tasks/${model.pipeline_tag}`}>{pipelineName(model.pipeline_tag)}</Link>
					</li>
				) : null}
				{model.library_name ? (
					<li>
						<span className="fact-kind">Library</span>
						<Link to={`/libraries/${encodeURIComponent(model.library_name)}`}>{model.library_name}</Link>
					</li>
				) : null}
				{license ? (
					<li>
						<span className="fact-kind">License</span>
						<Link to={`/models?license=${encodeURIComponent(modelLicenseTag(model) ?? license)}`}>
							{license}
						</Link>
					</li>
				) : null}
				{size ? (
					<li title={tensorTypes ? `Parameters by tensor type: ${tensorTypes}` : undefined}>
						<span className="fact-kind">Size</span>
						<span>{size}</span>
					</li>
				) : null}
				{gguf ? (
					<li>
						<span className="fact-kind">GGUF</span>
						<span>{gguf}</span>
					</li>
				) : null}
				<li title="Downloads in the last 30 days">
					<span className="fact-kind">Downloads last month</span>
					<span>{formatExactCount(model.downloads)}</span>
				</li>
				{model.downloadsAllTime !== undefined ? (
					<li>
						<span className="fact-kind">All-time downloads</span>
						<span>{formatExactCount(model.downloadsAllTime)}</span>
					</li>
				) : null}
				{model.lastModified ? (
					<li>
						<span className="fact-kind">Updated</span>
						<span>{formatRelative(model.lastModified)}</span>
					</li>
				) : null}
			</ul>
			<div className="header-actions">
				<UseThisModel model={model} />
			</div>
		</header>
	);
}

/** The license value the list filter knows (the tag), which for "other" licenses is not the shown name. */
function modelLicenseTag(model: ModelDetail): string | undefined {
	return model.tags.find((tag) => tag.startsWith("license:"))?.slice("license:".length);
}

/** Tags shown before "+N more": the first ones are the library, format and task tags. */
const SHOWN_TAGS = 10;

function CardTab({
	model,
	version,
	canWrite,
	onCommitted,
}: {
	model: ModelDetail;
	version: number;
	canWrite: boolean;
	onCommitted: () => void;
}) {
	const api = useApiOptions();
	// Asked for only when the files list one (model info has `siblings` by default): a model without a
	// card costs no 404. After a commit the model is read again at once, so a new card shows.
	const hasCard = model.siblings?.some((file) => file.rfilename === "README.md") !== false;
	const card = useResource(
		(signal) => (hasCard ? getModelCard(model.id, { ...api, signal }) : Promise.resolve(undefined)),
		[model.id, api, hasCard],
		version,
	);
	const tags = tagLinks(model.tags);
	const [allTags, setAllTags] = useState(false);
	const shown = allTags ? tags : tags.slice(0, SHOWN_TAGS);
	return (
		<div className="card-tab">
			{canWrite && card.status === "ready" && card.data !== undefined ? (
				<EditCardLink id={model.id} repoType="model" />
			) : null}
			{tags.length > 0 ? (
				<ul className="chip-list model-tags" aria-label="Tags">
					{shown.map((tag) => (
						<li key={tag.tag}>
							<Link
								className={`chip${tag.kind ? ` chip-${tag.kind.replace(/\s+/g, "-")}` : ""}`}
								to={tag.href}
							>
								{tag.kind ? <span className="chip-kind">{tag.kind}: </span> : null}
								{tag.label}
							</Link>
						</li>
					))}
					{tags.length > SHOWN_TAGS ? (
						<li>
							<button
								type="button"
								className="chip"
								aria-expanded={allTags}
								onClick={() => setAllTags(!allTags)}
							>
								{allTags ? "Fewer tags" : `+${tags.length - SHOWN_TAGS} more`}
							</button>
						</li>
					) : null}
				</ul>
			) : null}
			{card.status === "loading" ? <Loading label="Loading the model card" /> : null}
			{card.status === "error" ? (
				<ErrorNotice title="Could not load the model card">{card.error.message}</ErrorNotice>
			) : null}
			{card.status === "ready" && card.data === undefined ? (
				<>
					<p className="muted">This model has no model card (README.md) yet.</p>
					{canWrite ? <CreateCard repoId={model.id} kind="model" onCommitted={onCommitted} /> : null}
				</>
			) : null}
			{card.status === "ready" && card.data !== undefined ? (
				<Suspense fallback={<Loading label="Rendering the model card" />}>
					<ModelCard markdown={card.data} modelId={model.id} cardData={model.cardData} />
				</Suspense>
			) : null}
		</div>
	);
}

/** When the model is read again after a commit from the page (bounded: four reads). */
const REFRESH_AFTER_COMMIT_MS = [0, 1500, 4000, 10_000];

/** The first provider serving a model (`providerEntries`' first, without loading the provider catalogue). */
function firstProvider(mapping: ModelDetail["inferenceProviderMapping"]): string | undefined {
	if (!mapping || typeof mapping !== "object") return undefined;
	return Object.keys(mapping)[0];
}

/** At this width and wider the page has two columns; narrower, the sidebar is a third tab. */
const TWO_COLUMNS = "(min-width: 1000px)";

/** The card's other tabs, by `?tab=` (the files tab is the browsing addresses themselves). */
const QUERY_TABS = new Set(["inference", "settings"]);

function ModelView({ model: loaded, view }: { model: ModelDetail; view: BrowseView }) {
	const api = useApiOptions();
	const [isPrivate, setIsPrivate] = useState(loaded.private === true);
	// After a commit from the page (an edit, a deletion, an upload) the model is read again, so the header
	// (task, library, tags), the card, "Use this model" and the playground show its new metadata.
	const [fresh, setFresh] = useState<ModelDetail>();
	const [version, setVersion] = useState(0);
	const model = useMemo(() => ({ ...(fresh ?? loaded), private: isPrivate }), [fresh, loaded, isPrivate]);
	const refreshes = useRef<ReturnType<typeof setTimeout>[]>([]);
	useEffect(() => () => refreshes.current.forEach(clearTimeout), []);
	const onCommitted = useCallback(() => {
		setVersion((value) => value + 1);
		refreshes.current.forEach(clearTimeout);
		// The card's task, library and license are in the model at once; its tags come from the hub's
		// analysis, which runs just after the commit (packages/hub/README.md, "Repository analysis"), so
		// the model is read again a few times.
		refreshes.current = REFRESH_AFTER_COMMIT_MS.map((delay) =>
			setTimeout(() => getModel(loaded.id, api).then(setFresh, () => undefined), delay),
		);
	}, [loaded.id, api]);
	// The first provider of the mapping (the hub's preference order) until another is chosen; the sidebar
	// lists them (components/model/ModelSidebar.tsx).
	const [provider, setProvider] = useState(() => firstProvider(model.inferenceProviderMapping));
	// Arriving from "Create model", the files tab opens with its upload form.
	const arrival = (useLocation().state ?? {}) as { upload?: boolean };
	const navigate = useNavigate();
	const [params] = useSearchParams();
	const queryTab = params.get("tab");
	// The tab is the address: reload and Back restore it.
	const tab = openTab(view, arrival.upload === true, queryTab, QUERY_TABS);
	const setTab = (next: string) => {
		if (next === "card") void navigate(browseHref(model.id, { kind: "card" }));
		else if (next === "files")
			void navigate(browseHref(model.id, { kind: "tree", revision: "main", path: "" }));
		else if (next === "community") void navigate(browseHref(model.id, { kind: "discussions" }));
		else void navigate(`${browseHref(model.id, { kind: "card" })}?tab=${next}`);
	};
	const account = useHubSession(api.baseUrl)?.account;
	const { namespace } = splitModelId(model.id);
	const canWrite = can(account, namespace, "write");
	const canAdmin = can(account, namespace, "admin");
	const twoColumns = useMediaQuery(TWO_COLUMNS);
	// The sidebar loads the inference client (snippets, playground): after the card, when the browser is idle.
	const idle = useWhenIdle();
	const loadingSidebar = <Loading label="Loading the inference providers" />;
	const sidebar = idle ? (
		<Suspense fallback={loadingSidebar}>
			<ModelSidebar model={model} provider={provider} onProviderChange={setProvider} />
		</Suspense>
	) : (
		loadingSidebar
	);
	const tabs = [
		{
			id: "card",
			label: "Model card",
			content: <CardTab model={model} version={version} canWrite={canWrite} onCommitted={onCommitted} />,
		},
		{
			id: "files",
			label: "Files and versions",
			content: (
				<RepoBrowser
					modelId={model.id}
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
					<Community repoId={model.id} view={communityViewOf(view)} />
				</Suspense>
			),
		},
		// On a phone, one long column of card, snippets and playground is a scroll of several screens:
		// the inference part is a tab of its own there.
		...(twoColumns
			? []
			: [{ id: "inference", label: "Inference", content: <div className="model-sidebar">{sidebar}</div> }]),
		...(canAdmin
			? [
					{
						id: "settings",
						label: "Settings",
						content: (
							<Suspense fallback={<Loading label="Loading the settings" />}>
								<SettingsTab
									modelId={model.id}
									isPrivate={isPrivate}
									gated={model.gated ?? false}
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
		<article className="model-page">
			<ModelHeader model={model} user={account?.name} api={api} />
			{model.gated ? <GatedAccess modelId={model.id} api={api} /> : null}
			<div className="model-columns">
				<div className="model-main">
					<Tabs label="Model" className="model-tabs" items={tabs} selected={tab} onSelect={setTab} />
				</div>
				{twoColumns ? (
					<aside className="model-sidebar" aria-label="Run this model">
						{sidebar}
					</aside>
				) : null}
			</div>
		</article>
	);
}
