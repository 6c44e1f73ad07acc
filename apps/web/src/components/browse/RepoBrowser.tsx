import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { Link, useNavigate } from "react-router";
import { listRefs } from "../../api/models";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import { atRevision, browseHref, type FilesView } from "../../view/browse";
import { FilesTab } from "../model/FilesTab";
import { Loading } from "../Status";
import { RevisionSwitcher, type RevisionOption } from "./RevisionSwitcher";
import { CommitsView } from "./CommitsView";
import { useRepoType } from "../../hooks/useRepoType";

// A file's view (with the highlighter and the Markdown renderer) and a commit's diff (with the diff
// library) are chunks of their own: no other page loads them.
const BlobView = lazy(() => import("./BlobView"));
const CommitView = lazy(() => import("./CommitView"));
// Creating a branch or tag: for those who may write, when they open it.
const RefForm = lazy(() => import("./RefForm"));

/**
 * "Files and versions": the switcher, Files / History links, and the view the address names: a folder,
 * a file, a history or a commit.
 */
export function RepoBrowser({
	modelId,
	view,
	canWrite,
	isPrivate,
	initialUpload,
	onCommitted,
}: {
	modelId: string;
	view: FilesView;
	canWrite: boolean;
	isPrivate: boolean;
	initialUpload: boolean;
	/** A commit from the page landed: the page reads the model again (header, card, sidebar). */
	onCommitted: () => void;
}) {
	const repoType = useRepoType();
	const api = useApiOptions();
	const navigate = useNavigate();
	// Bumped by a commit or a new branch or tag: the refs are read again.
	const [refsVersion, setRefsVersion] = useState(0);
	const [creatingRef, setCreatingRef] = useState(false);
	const [created, setCreated] = useState<string>();
	const refs = useResource((signal) => listRefs(modelId, { ...api, signal }), [modelId, api], refsVersion);
	const committed = useCallback(() => {
		setRefsVersion((value) => value + 1);
		onCommitted();
	}, [onCommitted]);
	const options = useMemo<RevisionOption[]>(
		() =>
			refs.status === "ready"
				? [
						...refs.data.branches.map((ref) => ({ name: ref.name, kind: "branch" as const })),
						...refs.data.tags.map((ref) => ({ name: ref.name, kind: "tag" as const })),
					]
				: [{ name: "main", kind: "branch" }],
		[refs],
	);
	const revision = view.revision;
	// Edits commit to a branch: a tag or a commit id is a read-only view.
	const onBranch =
		refs.status === "ready" ? refs.data.branches.some((ref) => ref.name === revision) : revision === "main";
	const isHistory = view.kind === "commits" || view.kind === "commit";
	return (
		<div className="repo-browser">
			<div className="browse-toolbar">
				<RevisionSwitcher
					revision={revision}
					options={options}
					onChange={(next) => void navigate(browseHref(modelId, atRevision(view, next), repoType))}
				/>
				<nav aria-label="Repository" className="browse-nav">
					<Link
						to={browseHref(modelId, { kind: "tree", revision, path: "" }, repoType)}
						aria-current={isHistory ? undefined : "page"}
					>
						Files
					</Link>
					<Link
						to={browseHref(modelId, { kind: "commits", revision }, repoType)}
						aria-current={view.kind === "commits" ? "page" : undefined}
					>
						History
					</Link>
				</nav>
				{canWrite ? (
					<button
						type="button"
						className="btn btn-small"
						aria-expanded={creatingRef}
						onClick={() => {
							setCreated(undefined);
							setCreatingRef(!creatingRef);
						}}
					>
						New branch or tag
					</button>
				) : null}
			</div>
			{created ? (
				<p className="notice notice-info" role="status">
					{created}
				</p>
			) : null}
			{canWrite && creatingRef ? (
				<Suspense fallback={<Loading label="Loading the form" />}>
					<RefForm
						modelId={modelId}
						revision={revision}
						onCancel={() => setCreatingRef(false)}
						onCreated={(kind, name) => {
							setCreatingRef(false);
							setRefsVersion((value) => value + 1);
							setCreated(`Created the ${kind} ${name} at ${revision}.`);
							// A new branch is where the next edits go: the page moves to it.
							if (kind === "branch") void navigate(browseHref(modelId, atRevision(view, name), repoType));
						}}
					/>
				</Suspense>
			) : null}
			{view.kind === "tree" ? (
				<FilesTab
					key={`${revision}\n${view.path}`}
					modelId={modelId}
					revision={revision}
					folder={view.path}
					canWrite={canWrite}
					isPrivate={isPrivate}
					initialUpload={initialUpload}
					onCommitted={committed}
				/>
			) : null}
			{view.kind === "commits" ? <CommitsView modelId={modelId} revision={revision} /> : null}
			{view.kind === "blob" ? (
				<Suspense fallback={<Loading label="Loading the file view" />}>
					<BlobView
						modelId={modelId}
						revision={revision}
						path={view.path}
						isPrivate={isPrivate}
						canEdit={canWrite && onBranch}
						onCommitted={committed}
					/>
				</Suspense>
			) : null}
			{view.kind === "commit" ? (
				<Suspense fallback={<Loading label="Loading the commit view" />}>
					<CommitView modelId={modelId} revision={revision} />
				</Suspense>
			) : null}
		</div>
	);
}
